package policy

import (
	"path/filepath"
	"slices"

	"companion/tools"
)

// Scope is how far an "always" answer reaches.
type Scope int

// Scopes of an "always" answer.
const (
	// ScopeThis covers this file (edits), these programs (shell), this
	// tool (fetch, MCP tool).
	ScopeThis Scope = iota
	// ScopeAll covers every edit, or every tool of the MCP server.
	ScopeAll
)

// AlwaysRules returns the rules an "always" answer about a call adds.
func AlwaysRules(c Call, scope Scope) []Rule {
	conf := c.Confirm
	if conf == nil {
		return []Rule{{Tool: c.Tool}}
	}
	switch conf.Type {
	case tools.ConfirmEdit:
		if scope == ScopeAll {
			return []Rule{{Tool: "edit"}}
		}
		rel, err := filepath.Rel(c.Root, conf.Path)
		if err != nil || !filepath.IsLocal(rel) {
			rel = conf.Path
		}
		return []Rule{{Tool: "edit", Pattern: filepath.ToSlash(rel)}}
	case tools.ConfirmExec:
		var rules []Rule
		for _, name := range rootNames(conf) {
			rules = append(rules, Rule{Tool: "shell", Pattern: name})
		}
		return rules
	case tools.ConfirmMCP:
		if scope == ScopeAll {
			return []Rule{{Tool: "mcp", Pattern: conf.Server}}
		}
		return []Rule{{Tool: "mcp", Pattern: conf.Server + "/" + conf.Tool}}
	}
	return []Rule{{Tool: c.Tool}}
}

// rootNames are the distinct program names of a shell line.
func rootNames(conf *tools.Confirmation) []string {
	names := slices.Clone(conf.RootCommands)
	if len(names) == 0 {
		for _, cmd := range conf.Commands {
			if len(cmd.Words) > 0 && !slices.Contains(names, cmd.Words[0]) {
				names = append(names, cmd.Words[0])
			}
		}
	}
	return names
}
