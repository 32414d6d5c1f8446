package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWithProjectLimits: in a folder that is not trusted only the rules
// that restrict (deny, ask, only) of the project's files are added; allow
// rules, hooks and MCP servers are not.
func TestWithProjectLimits(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		".claude/settings.json":    `{"permissions": {"allow": ["Bash(touch:*)"], "ask": ["Bash(git push:*)"], "deny": ["Read(./.env)"]}}`,
		".gemini/settings.json":    `{"tools": {"core": ["read_file"]}, "mcpServers": {"m": {"command": "m"}}}`,
		".companion/settings.json": `{"permissions": {"deny": ["run_shell_command(rm)"]}, "hooks": {"BeforeTool": []}}`,
	} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := ReadProjectFile(root)
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Permissions: Permissions{Deny: []string{"user-rule"}}}.WithProjectLimits(f)
	p := c.Permissions
	if len(p.Allow) != 0 || len(p.Ask) != 1 || len(p.Deny) != 3 || len(p.Only) != 1 || p.Deny[0] != "user-rule" {
		t.Errorf("permissions = %+v", p)
	}
	if len(c.ProjectMCPServers) != 0 || len(c.ProjectHooks) != 0 {
		t.Errorf("powers applied: %s %s", c.ProjectMCPServers, c.ProjectHooks)
	}
	if p.Origins["Read(./.env)"] == "" {
		t.Errorf("origins = %v", p.Origins)
	}
}
