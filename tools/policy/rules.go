package policy

import (
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"companion/tools"
)

// Rule matches tool calls. It is written as `tool` or `tool(pattern)`:
// for shell tools the pattern is a command prefix ("git status", "npm
// run"); for edit tools a path glob relative to the session root
// ("src/**/*.go") or absolute; for MCP tools a server or server/tool
// name; for fetch tools a host ("docs.python.org", "localhost:8080");
// other tools take no pattern. Tool may be a tool name or one of the
// groups "edit", "shell" (run_shell_command), "fetch" and "mcp".
type Rule struct {
	Tool    string
	Pattern string
	// Exact makes a shell rule cover only the command its pattern spells
	// out in full, not the commands it starts (Claude Code's Bash(cmd));
	// deny rules ignore it.
	Exact bool
	// Tree makes a path rule cover what is inside the folder its pattern
	// names too (Claude Code's gitignore-style paths).
	Tree bool
	// text is the rule as written, when it was translated from Claude
	// Code's syntax (String).
	text string
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
	if r.text != "" {
		return r.text
	}
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
	// Paths are the files and folders a call reads (its locations), which
	// path rules of the read group test.
	Paths []string
	// dir is the folder a shell call runs in, resolved once by Decide
	// (workDir).
	dir string
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
	case readGroup:
		return c.Kind == tools.KindRead || c.Kind == tools.KindSearch
	}
	return false
}

// matchesPath reports whether an edit rule's glob covers path.
func (r Rule) matchesPath(root, path string) bool {
	pattern := r.Pattern
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(root, pattern)
	}
	pattern, path = filepath.ToSlash(pattern), filepath.ToSlash(path)
	ok, err := doublestar.PathMatch(pattern, path)
	if r.Tree && !ok && err == nil {
		ok, err = doublestar.PathMatch(pattern+"/**", path)
	}
	return err == nil && ok
}

// matchesPaths reports whether a path rule covers any of the paths a
// call reads.
func (r Rule) matchesPaths(root string, paths []string) bool {
	for _, p := range paths {
		if r.matchesPath(root, p) {
			return true
		}
	}
	return false
}

// matchesCommand reports whether a shell rule's prefix covers one simple
// command of the call: the rule's words must be the command's first
// words, its program compared by sameProgram. A Dynamic command matches
// nothing, and an allow or ask rule (deny false) never covers a command
// whose options reach beyond its name (Beyond), nor one whose leading
// words choosing its code (Fixed: python3 -m pytest) it does not name.
func (r Rule) matchesCommand(c Call, cmd tools.ShellCommand, deny bool) bool {
	if cmd.Dynamic || (!deny && cmd.Beyond != "") {
		return false
	}
	prefix := strings.Fields(r.Pattern)
	if len(prefix) == 0 || len(prefix) > len(cmd.Words) || (!deny && len(prefix) < cmd.Fixed) ||
		(r.Exact && !deny && len(prefix) != len(cmd.Words)) {
		return false
	}
	if !sameProgram(prefix[0], cmd.Words[0], c.workDir(), deny) {
		return false
	}
	for i, w := range prefix[1:] {
		if cmd.Words[i+1] != w {
			return false
		}
	}
	return true
}

// workDir is the directory a shell call runs in: the one Decide
// resolved, else resolved now.
func (c Call) workDir() string {
	switch {
	case c.dir != "":
		return c.dir
	case c.Confirm == nil:
		return c.Root
	}
	return commandDir(c.Root, c.Confirm.Dir)
}

// sameProgram reports whether a rule's program and a command's program
// word name the same program. The same word is the same program (a name
// is looked up in PATH, which a line cannot change unasked). Otherwise
// both are resolved as the shell would (a bare name through PATH, a
// relative path from dir) with the symbolic links of their folders
// followed: /bin/rm and rm are the same program, ./ls and /tmp/evil/ls are
// not ls. A deny rule also matches by base name (/usr/bin/rm, ./rm) and
// through a symbolic link whose target has the rule's name.
func sameProgram(rule, word, dir string, deny bool) bool {
	if rule == word {
		return true
	}
	if deny && filepath.Base(rule) == filepath.Base(word) {
		return true
	}
	rp, ok1 := programPath(rule, dir)
	wp, ok2 := programPath(word, dir)
	if !ok1 || !ok2 {
		return false
	}
	if rp == wp {
		return true
	}
	if !deny {
		return false
	}
	rt, err1 := filepath.EvalSymlinks(rp)
	wt, err2 := filepath.EvalSymlinks(wp)
	return err1 == nil && err2 == nil && rt == wt && filepath.Base(wt) == filepath.Base(rule)
}

// programPath resolves a program word to an absolute path whose folders
// hold no symbolic link; the last element is kept, since a multi-call
// program (busybox) acts by the name it is called by.
func programPath(name, dir string) (string, bool) {
	p := name
	if !strings.Contains(name, "/") {
		found, err := osexec.LookPath(name)
		if err != nil {
			return "", false
		}
		p = found
	}
	if !filepath.IsAbs(p) {
		if dir == "" {
			return "", false
		}
		p = filepath.Join(dir, p)
	}
	parent, err := filepath.EvalSymlinks(filepath.Dir(filepath.Clean(p)))
	if err != nil {
		return "", false
	}
	p = filepath.Join(parent, filepath.Base(p))
	if info, err := os.Stat(p); err != nil || info.IsDir() {
		return "", false
	}
	return p, true
}

// matchesMCP reports whether an MCP rule's "server" or "server/tool"
// pattern covers the call.
func (r Rule) matchesMCP(c *tools.Confirmation) bool {
	server, tool, hasTool := strings.Cut(r.Pattern, "/")
	return server == c.Server && (!hasTool || tool == c.Tool)
}

// matchesURLs reports whether a fetch rule's host pattern covers every URL
// of the call (a call without URLs is covered by no host).
func (r Rule) matchesURLs(c *tools.Confirmation) bool {
	if len(c.URLs) == 0 {
		return false
	}
	for _, raw := range c.URLs {
		if host, ok := urlHost(raw); !ok || host != strings.ToLower(r.Pattern) {
			return false
		}
	}
	return true
}
