package policy

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"companion/tools"
)

// Rules in settings come in two syntaxes, told apart by the tool name:
// companion's own (and Gemini CLI's), "run_shell_command(git status)" or
// "edit(src/**)" (see Rule), and Claude Code's, "Bash(npm run test:*)",
// "Read(./.env)", "Edit(src/**)", "WebFetch(domain:example.com)",
// "mcp__server__tool". ParseRuleAt turns a Claude Code rule into the
// companion rule that means the same:
//
//   - Bash(cmd:*) is a prefix of the command's words, Bash(cmd) the whole
//     command (Exact; a deny rule still denies every command it starts,
//     so "Bash(rm)" also denies "rm -rf x"), Bash or Bash(*) every line;
//   - Read(path) covers the reading and searching tools, Edit, MultiEdit,
//     Write and NotebookEdit(path) the editing ones; paths are
//     gitignore-style: "//abs" absolute, "~/p" in the home folder, "/p"
//     relative to the settings file's folder, "./p" and "p/q" relative to
//     the session root, a bare "p" at any depth; a folder covers what is
//     inside it;
//   - WebFetch(domain:host) a host;
//   - mcp__server and mcp__server__tool an MCP server or one of its tools;
//   - Grep, Glob, LS, WebSearch, TodoWrite, Task, Skill, BashOutput,
//     KillShell and AskUserQuestion the tools companion has under other
//     names (tools.Aliases);
//   - NotebookRead, ExitPlanMode and the like (tools.ClaudeOnly) nothing:
//     companion has no such tool, which Inert reports.

// ErrUnknownTool means a rule names no tool companion, Claude Code or the
// caller knows: the rule would silently do nothing.
var ErrUnknownTool = errors.New("names no known tool (companion's, such as run_shell_command or edit, or Claude Code's, such as Bash or Edit)")

// ErrUnsupported means a Claude Code rule's pattern is one companion does
// not read (a wildcard inside a Bash command, a WebFetch host without
// "domain:", …).
var ErrUnsupported = errors.New("pattern not supported")

// Place is where a rule was written: the folder of its settings file
// ("/p" paths in Claude Code's rules start there) and the user's home
// ("~/p").
type Place struct {
	Dir, Home string
}

// readGroup is the group of Read rules: the tools that read or search.
const readGroup = "read"

// groups are the tool groups rules may name besides tool names.
var groups = []string{"*", "edit", "shell", "fetch", "mcp", readGroup}

// Inert reports whether the rule names a Claude Code tool companion does
// not have, so it matches nothing here.
func (r Rule) Inert() bool { return slices.Contains(tools.ClaudeOnly(), r.Tool) }

// ParseRuleAt reads a rule in companion's syntax or Claude Code's (see
// above), written at. A rule whose tool is not a group, one of
// companion's tools (an MCP tool's "mcp_…" name included), a Claude Code
// tool, or a name known reports true for is an error: a rule that names
// no tool would silently do nothing. known may be nil.
func ParseRuleAt(s string, at Place, known func(string) bool) (Rule, error) {
	r, err := ParseRule(s)
	if err != nil {
		return r, err
	}
	if c, ok, err := claudeRule(r, at); ok || err != nil {
		if err != nil {
			return Rule{}, fmt.Errorf("rule %q: %w: %w", s, ErrUnsupported, err)
		}
		c.text = strings.TrimSpace(s)
		return c, nil
	}
	if slices.Contains(groups, r.Tool) || strings.HasPrefix(r.Tool, "mcp_") || (known != nil && known(r.Tool)) {
		return r, nil
	}
	if _, ok := tools.AliasOf(r.Tool); ok {
		return r, nil
	}
	return Rule{}, fmt.Errorf("rule %q %w", s, ErrUnknownTool)
}

// claudeRule translates a rule whose tool is a Claude Code name; ok is
// false for any other rule.
func claudeRule(r Rule, at Place) (Rule, bool, error) {
	if server, tool, ok := tools.ParseClaudeMCP(r.Tool); ok {
		if r.Pattern != "" {
			return Rule{}, true, errors.New("MCP rules take no pattern")
		}
		if tool != "" && tool != "*" {
			server += "/" + tool
		}
		return Rule{Tool: "mcp", Pattern: server}, true, nil
	}
	switch r.Tool {
	case "Bash":
		out, err := claudeShell(r.Pattern)
		return out, true, err
	case "Read", "Edit", "MultiEdit", "Write", "NotebookEdit":
		group := "edit"
		if r.Tool == "Read" {
			group = readGroup
		}
		if r.Pattern == "" || r.Pattern == "*" || r.Pattern == "**" {
			return Rule{Tool: group}, true, nil
		}
		p, err := claudePath(r.Pattern, at)
		return Rule{Tool: group, Pattern: p, Tree: true}, true, err
	case "WebFetch":
		host, ok := strings.CutPrefix(r.Pattern, "domain:")
		if r.Pattern != "" && (!ok || host == "") {
			return Rule{}, true, errors.New(`WebFetch rules name a host as "domain:example.com"`)
		}
		return Rule{Tool: "web_fetch", Pattern: host}, true, nil
	}
	if slices.Contains(tools.ClaudeOnly(), r.Tool) {
		return Rule{Tool: r.Tool, Pattern: r.Pattern}, true, nil
	}
	for _, a := range tools.Aliases() {
		if a.Claude == "" || a.Claude != r.Tool {
			continue
		}
		switch a.Name {
		case "glob", "grep", "list_directory":
			if r.Pattern == "" {
				return Rule{Tool: a.Name}, true, nil
			}
			p, err := claudePath(r.Pattern, at)
			return Rule{Tool: a.Name, Pattern: p, Tree: true}, true, err
		}
		if r.Pattern != "" {
			return Rule{}, true, fmt.Errorf("%s rules take no pattern here", r.Tool)
		}
		return Rule{Tool: a.Name}, true, nil
	}
	return Rule{}, false, nil
}

// claudeShell translates a Bash rule's pattern: "cmd:*" (or "cmd *") a
// prefix, "cmd" the whole command, "" or "*" every line.
func claudeShell(pattern string) (Rule, error) {
	if pattern == "" || pattern == "*" {
		return Rule{Tool: "shell"}, nil
	}
	prefix, isPrefix := strings.CutSuffix(pattern, ":*")
	if !isPrefix {
		prefix, isPrefix = strings.CutSuffix(pattern, " *")
	}
	if strings.ContainsAny(prefix, "*") {
		return Rule{}, errors.New(`a Bash rule's wildcard may only end it, as "npm run test:*"`)
	}
	if strings.TrimSpace(prefix) == "" {
		return Rule{}, errors.New("a Bash rule names no command")
	}
	return Rule{Tool: "shell", Pattern: strings.TrimSpace(prefix), Exact: !isPrefix}, nil
}

// claudePath translates a gitignore-style path of a Claude Code rule into
// a glob, absolute or relative to the session root (the rule's Tree
// makes it cover what is inside a folder it names too).
func claudePath(p string, at Place) (string, error) {
	var out string
	switch {
	case strings.HasPrefix(p, "//"):
		out = p[1:]
	case strings.HasPrefix(p, "~/"):
		if at.Home == "" {
			return "", errors.New("no home folder to read ~/ in")
		}
		out = filepath.ToSlash(at.Home) + p[1:]
	case strings.HasPrefix(p, "/"):
		if at.Dir == "" {
			return "", errors.New("a path starting with / is relative to the settings file, and this rule has none")
		}
		out = filepath.ToSlash(at.Dir) + p
	case strings.HasPrefix(p, "./"):
		out = strings.TrimPrefix(p, "./")
	case !strings.Contains(strings.TrimSuffix(p, "/"), "/"):
		out = "**/" + p
	default:
		out = p
	}
	return strings.TrimSuffix(out, "/"), nil
}
