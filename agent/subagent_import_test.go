package agent

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestImportedAgents reads the fixture home and project trees of Gemini
// CLI's and Claude Code's subagents.
func TestImportedAgents(t *testing.T) {
	home, project := filepath.Join("testdata", "imports", "home"), filepath.Join("testdata", "imports", "project")
	type want struct {
		desc, model string
		tools       []string
		turns       int
		timeout     time.Duration
	}
	tests := []struct {
		name    string
		project string
		want    map[string]want
	}{
		{"user only (untrusted workspace)", "", map[string]want{
			"reviewer":   {desc: "Reviews a change for bugs.", tools: []string{"read_file", "grep", "glob", "run_shell_command"}},
			"researcher": {desc: "Finds things out.", model: "gemini-2.5-flash", tools: []string{"read_file", "grep", "web_fetch"}, turns: 7, timeout: 2 * time.Minute},
		}},
		{"with the project", project, map[string]want{
			"reviewer":   {desc: "The project's reviewer wins over the user's."},
			"researcher": {desc: "Finds things out.", model: "gemini-2.5-flash", tools: []string{"read_file", "grep", "web_fetch"}, turns: 7, timeout: 2 * time.Minute},
			"tester":     {desc: "companion's own definition wins.", tools: []string{"run_shell_command", "read_file"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defs, errs := LoadAgentFolders(AgentFolders(tt.project, "", home))
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.md") {
				t.Errorf("errors = %v, want the broken definition's", errs)
			}
			if len(defs) != len(tt.want) {
				t.Fatalf("got %d agents: %+v", len(defs), defs)
			}
			for _, d := range defs {
				w, ok := tt.want[d.Name]
				if !ok || d.Description != w.desc || d.Model != w.model || !slices.Equal(d.Tools, w.tools) ||
					d.MaxTurns != w.turns || d.Timeout != w.timeout || d.Prompt == "" {
					t.Errorf("%s = %+v, want %+v", d.Name, d, w)
				}
			}
		})
	}
}

func TestForeignToolsNamedInAString(t *testing.T) {
	dir := t.TempDir()
	writeAgent := filepath.Join(dir, "a.md")
	if err := os.WriteFile(writeAgent, []byte("---\ndescription: d\ntools: Edit, MultiEdit, LS, TodoWrite, mcp_x_y\nmodel: opus\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := parseForeignAgent(writeAgent)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"replace", "replace", "list_directory", "write_todos", "mcp_x_y"}; !slices.Equal(d.Tools, want) || d.Model != "" || d.Name != "a" {
		t.Errorf("got %+v", d)
	}
}
