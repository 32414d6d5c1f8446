package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"companion/config"
)

func TestParseMCPArgs(t *testing.T) {
	tests := []struct {
		name string
		args string
		want mcpArgs
	}{
		{"defaults to project", "db node db.js", mcpArgs{scope: "project", pos: []string{"db", "node", "db.js"}}},
		{"short flags", "-s user -t stdio -e A=1 -e B=2=x db node",
			mcpArgs{scope: "user", scopeSet: true, transport: "stdio", env: []string{"A=1", "B=2=x"}, pos: []string{"db", "node"}}},
		{"long flags with =", "--scope=user --transport=http --header=X:y web https://h/mcp",
			mcpArgs{scope: "user", scopeSet: true, transport: "http", headers: []string{"X:y"}, pos: []string{"web", "https://h/mcp"}}},
		{"flags after a URL are companion's", "web https://h/mcp -H Authorization:_Bearer_t --trust",
			mcpArgs{scope: "project", trust: true, headers: []string{"Authorization: Bearer t"}, pos: []string{"web", "https://h/mcp"}}},
		{"flags after a command are the server's", "fs npx -y server -e X=1",
			mcpArgs{scope: "project", pos: []string{"fs", "npx", "-y", "server", "-e", "X=1"}}},
		{"double dash", "-e K=V fs -- npx -y --port 1",
			mcpArgs{scope: "project", env: []string{"K=V"}, pos: []string{"fs", "npx", "-y", "--port", "1"}}},
		{"between name and command", "fs -e K=V --timeout 500 --include-tools a,b --exclude-tools c node x",
			mcpArgs{scope: "project", env: []string{"K=V"}, timeout: 500, include: []string{"a", "b"}, exclude: []string{"c"}, pos: []string{"fs", "node", "x"}}},
		{"gemini's --type and --description", "--type sse --description Team_docs --file .mcp.json docs https://h/sse",
			mcpArgs{scope: "project", transport: "sse", description: "Team docs", file: ".mcp.json", pos: []string{"docs", "https://h/sse"}}},
		{"switches", "--project --user --trust n", mcpArgs{scope: "user", scopeSet: true, trust: true, pos: []string{"n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := strings.Fields(tt.args)
			for i := range args {
				args[i] = strings.ReplaceAll(args[i], "_", " ")
			}
			got, err := parseMCPArgs(args)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseMCPArgsErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-s", "local", "n", "c"}, {"-t", "ws", "n", "c"}, {"-e", "novalue", "n", "c"}, {"-H", "nocolon", "n", "u"},
		{"--timeout", "soon", "n", "c"}, {"--bogus", "n", "c"}, {"-e"},
	} {
		if _, err := parseMCPArgs(args); !errors.Is(err, errMCPUsage) {
			t.Errorf("%q: err = %v, want a usage error", args, err)
		}
	}
}

// TestMCPAddProjectDefault checks that a server added without a scope
// lands in the project's settings, and -s user in the user's.
func TestMCPAddProjectDefault(t *testing.T) {
	home, wd := t.TempDir(), t.TempDir()
	t.Chdir(wd)
	run1 := runIn(home)
	if code, out := run1("mcp", "add", "-e", "K=V", "-H", "A: b", "-t", "sse", "feed", "https://h/sse"); code != 0 {
		t.Fatalf("add: %d %s", code, out)
	}
	if code, out := run1("mcp", "add", "-s", "user", "tool", "--", "node", "--flag"); code != 0 {
		t.Fatalf("add user: %d %s", code, out)
	}
	cfg, err := config.Load(homeEnv(home))
	if err != nil {
		t.Fatal(err)
	}
	pf, err := config.ReadProjectFile(wd)
	if err != nil {
		t.Fatal(err)
	}
	if p := cfg.ApplyProject(pf).PendingProject; p != nil {
		t.Errorf("the user's own mcp add is held back: %+v", p)
	}
	servers, _, err := config.ListMCPServers(config.ProjectSettingsPath(wd))
	if err != nil {
		t.Fatal(err)
	}
	if s := servers["feed"]; s.URL != "https://h/sse" || s.Headers["A"] != "b" || s.Env["K"] != "V" {
		t.Errorf("project server = %+v", s)
	}
	if code, out := run1("mcp", "list"); code != 0 || !strings.Contains(out, "feed\tsse\thttps://h/sse") || !strings.Contains(out, "tool\tstdio\tnode --flag") {
		t.Errorf("list without a scope shows both: %d %q", code, out)
	}
	if _, out := run1("mcp", "list", "-s", "project"); strings.Contains(out, "tool") {
		t.Errorf("list -s project shows the user's: %q", out)
	}
	data, err := os.ReadFile(filepath.Join(home, ".config", "companion", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	var user struct{ MCPServers map[string]config.MCPServer }
	if err := json.Unmarshal(data, &user); err != nil || user.MCPServers["tool"].Command != "node" ||
		!reflect.DeepEqual(user.MCPServers["tool"].Args, []string{"--flag"}) || user.MCPServers["feed"].URL != "" {
		t.Errorf("user settings = %s (%v)", data, err)
	}
}
