package policy

import (
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"companion/tools"
)

// Scope is how far an "always" answer reaches.
type Scope int

// Scopes of an "always" answer.
const (
	// ScopeThis covers this file (edits), these programs (shell; with
	// their subcommand for tools that have subcommands: git status, npm
	// run build), this tool on these hosts (fetch), this MCP tool.
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
		return shellRules(conf)
	case tools.ConfirmInfo:
		if len(conf.URLs) > 0 {
			return hostRules(c.Tool, conf.URLs)
		}
	case tools.ConfirmMCP:
		if scope == ScopeAll {
			return []Rule{{Tool: "mcp", Pattern: conf.Server}}
		}
		return []Rule{{Tool: "mcp", Pattern: conf.Server + "/" + conf.Tool}}
	}
	return []Rule{{Tool: c.Tool}}
}

// shellRules are the rules an "always" answer about a shell line adds:
// one per command that a rule can cover, as narrow as its program (and
// subcommand) allows. Commands no rule covers (Dynamic, Beyond) add none.
func shellRules(conf *tools.Confirmation) []Rule {
	if len(conf.Commands) == 0 {
		var rules []Rule
		for _, name := range conf.RootCommands {
			rules = append(rules, Rule{Tool: "shell", Pattern: name})
		}
		return rules
	}
	var rules []Rule
	for _, cmd := range conf.Commands {
		if cmd.Dynamic || cmd.Beyond != "" || len(cmd.Words) == 0 {
			continue
		}
		words := ruleWords(cmd.Words)
		if cmd.Fixed > len(words) && cmd.Fixed <= len(cmd.Words) {
			words = cmd.Words[:cmd.Fixed] // python3 -m pytest: the module, not every module
		}
		if slices.ContainsFunc(words, func(w string) bool { return w == "" || strings.ContainsAny(w, " \t\n()") }) {
			continue // a rule pattern cannot hold such a word
		}
		r := Rule{Tool: "shell", Pattern: strings.Join(words, " ")}
		if !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	return rules
}

// ruleWords are the first words of a command that a remembered rule
// names: the program, and for a program with subcommands its options up
// to and including the subcommand (the script for npm run, the package
// for npx).
func ruleWords(ws []string) []string {
	valued, ok := subcommandTool(filepath.Base(ws[0]))
	if !ok {
		return ws[:1]
	}
	for i := 1; i < len(ws); i++ {
		w := ws[i]
		switch {
		case slices.Contains(valued, w):
			i++
		case strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+"):
		case strings.Contains(w, "=") && filepath.Base(ws[0]) == "make":
		default:
			end := i + 1
			if (w == "run" || w == "run-script" || w == "exec") && end < len(ws) && !strings.HasPrefix(ws[end], "-") {
				end++ // npm run build: the script, not every script
			}
			return ws[:end]
		}
	}
	return ws
}

// subcommandTool reports whether a program acts by subcommand (git
// status, docker run), with its global options that take a value.
func subcommandTool(name string) ([]string, bool) {
	switch name {
	case "git":
		return []string{"-C", "-c", "--namespace", "--super-prefix", "--config-env"}, true
	case "docker", "podman":
		return []string{"-H", "--host", "-c", "--context", "--config", "-l", "--log-level"}, true
	case "kubectl", "helm":
		return []string{"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user"}, true
	case "npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx", "uv", "uvx", "go", "cargo", "rustup", "gh", "glab",
		"terraform", "tofu", "pip", "pip3", "pipx", "poetry", "conda", "mamba", "brew", "apt", "apt-get", "dnf",
		"yum", "apk", "snap", "systemctl", "dotnet", "mvn", "gradle", "gradlew", "deno", "bundle", "gem", "mix",
		"composer", "flutter", "dart", "swift", "zig", "nix", "aws", "gcloud", "az", "make", "just", "task":
		return nil, true
	}
	return nil, false
}

// hostRules are the rules an "always" answer about fetching urls adds:
// one per host, so allowing one page does not allow sending data to any
// other host. A URL without a host adds none.
func hostRules(tool string, urls []string) []Rule {
	var rules []Rule
	for _, raw := range urls {
		host, ok := urlHost(raw)
		if !ok {
			return nil
		}
		if r := (Rule{Tool: tool, Pattern: host}); !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	return rules
}

// urlHost is the lower-case host (with its port, if any) a URL names.
func urlHost(raw string) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", false
	}
	return strings.ToLower(u.Host), true
}
