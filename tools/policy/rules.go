package policy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"companion/tools"
)

// Rule matches tool calls. It is written as `tool` or `tool(pattern)`:
// for shell tools the pattern is a command prefix ("git status", "npm
// run"); for edit tools a path glob relative to the session root
// ("src/**/*.go") or absolute; for MCP tools a server or server/tool
// name; other tools take no pattern. Tool may be a tool name or one of the
// groups "edit", "shell" (run_shell_command), "fetch" and "mcp".
type Rule struct {
	Tool    string
	Pattern string
}

// ParseRule reads "tool" or "tool(pattern)".
func ParseRule(s string) (Rule, error) {
	s = strings.TrimSpace(s)
	name, rest, hasPattern := strings.Cut(s, "(")
	if name == "" {
		return Rule{}, fmt.Errorf("rule %q names no tool", s)
	}
	if !hasPattern {
		return Rule{Tool: name}, nil
	}
	if !strings.HasSuffix(rest, ")") {
		return Rule{}, fmt.Errorf("rule %q: missing closing parenthesis", s)
	}
	return Rule{Tool: strings.TrimSpace(name), Pattern: strings.TrimSpace(strings.TrimSuffix(rest, ")"))}, nil
}

// String writes the rule back in its settings form.
func (r Rule) String() string {
	if r.Pattern == "" {
		return r.Tool
	}
	return r.Tool + "(" + r.Pattern + ")"
}

// Call is what a rule is matched against.
type Call struct {
	Tool    string
	Kind    tools.Kind
	Confirm *tools.Confirmation
	// Root is the session's primary root, for relative edit globs.
	Root string
}

// matchesTool reports whether the rule's tool part covers the call.
func (r Rule) matchesTool(c Call) bool {
	switch r.Tool {
	case c.Tool, "*":
		return true
	case "edit":
		return c.Kind == tools.KindEdit
	case "shell":
		return c.Confirm != nil && c.Confirm.Type == tools.ConfirmExec
	case "fetch":
		return c.Kind == tools.KindFetch
	case "mcp":
		return c.Confirm != nil && c.Confirm.Type == tools.ConfirmMCP
	}
	return false
}

// matchesPath reports whether an edit rule's glob covers path.
func (r Rule) matchesPath(root, path string) bool {
	pattern := r.Pattern
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(root, pattern)
	}
	ok, err := doublestar.PathMatch(filepath.ToSlash(pattern), filepath.ToSlash(path))
	return err == nil && ok
}

// matchesCommand reports whether a shell rule's prefix covers one simple
// command: the rule's words must be the command's first words.
func (r Rule) matchesCommand(cmd tools.ShellCommand) bool {
	if cmd.Dynamic {
		return false
	}
	prefix := strings.Fields(r.Pattern)
	if len(prefix) == 0 || len(prefix) > len(cmd.Words) {
		return false
	}
	for i, w := range prefix {
		if cmd.Words[i] != w {
			return false
		}
	}
	return true
}

// matchesMCP reports whether an MCP rule's "server" or "server/tool"
// pattern covers the call.
func (r Rule) matchesMCP(c *tools.Confirmation) bool {
	server, tool, hasTool := strings.Cut(r.Pattern, "/")
	return server == c.Server && (!hasTool || tool == c.Tool)
}
