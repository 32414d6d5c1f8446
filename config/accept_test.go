package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

const powerful = `{"model":"p","permissions":{"allow":["run_shell_command(make)"],"deny":["shell(rm)"],"ask":["shell(git push)"]},
	"hooks":{"BeforeTool":[{"matcher":"*","hooks":[{"type":"command","command":"touch hooked"}]}]},
	"mcpServers":{"db":{"command":"node","args":["db.js"],"trust":true},"web":{"httpUrl":"https://x.example/mcp"}},
	"memoryFileNames":["NOTES.md"]}`

// userConfig is a user configuration whose config directory is in a
// temporary home.
func userConfig(t *testing.T) Config {
	t.Helper()
	c, err := Load(envFrom(map[string]string{"HOME": t.TempDir()}))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestApplyProjectHoldsBackPowers(t *testing.T) {
	root := t.TempDir()
	write(t, ProjectSettingsPath(root), powerful)
	user := userConfig(t)
	f, err := ReadProjectFile(root)
	if err != nil {
		t.Fatal(err)
	}
	got := user.ApplyProject(f)
	if len(got.Permissions.Allow) != 0 || got.ProjectHooks != nil || got.ProjectMCPServers != nil || slices.Contains(got.MemoryFileNames, "NOTES.md") {
		t.Errorf("powers loaded before acceptance: %+v", got)
	}
	if got.Model != "p" || !slices.Contains(got.Permissions.Deny, "shell(rm)") || !slices.Contains(got.Permissions.Ask, "shell(git push)") {
		t.Errorf("restrictions and choices must load: %+v", got)
	}
	want := []string{"allows run_shell_command(make)", "adds hook BeforeTool: touch hooked",
		"adds MCP server db (node db.js)", "adds MCP server web (https://x.example/mcp)",
		"reads instruction files named NOTES.md"}
	if got.PendingProject == nil || !slices.Equal(got.PendingProject.Adds, want) || got.PendingProject.Path != f.Path {
		t.Fatalf("pending = %+v, want adds %q", got.PendingProject, want)
	}
	if err := user.Accept(f.Path, f.Hash); err != nil {
		t.Fatal(err)
	}
	got = user.ApplyProject(f)
	if got.PendingProject != nil || !slices.Contains(got.Permissions.Allow, "run_shell_command(make)") || got.ProjectHooks == nil || got.ProjectMCPServers == nil {
		t.Errorf("accepted settings must load whole: %+v", got)
	}
	write(t, ProjectSettingsPath(root), powerful+" ")
	changed, err := ReadProjectFile(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := user.ApplyProject(changed); got.PendingProject == nil || len(got.Permissions.Allow) != 0 {
		t.Errorf("a changed file must wait for acceptance again: %+v", got)
	}
}

func TestApplyProjectWithoutPowers(t *testing.T) {
	for _, text := range []string{`{"model":"m"}`, `{"permissions":{"deny":["shell(rm)"]}}`, `{"hooks":{},"mcpServers":null}`} {
		root := t.TempDir()
		write(t, ProjectSettingsPath(root), text)
		f, err := ReadProjectFile(root)
		if err != nil {
			t.Fatal(err)
		}
		if got := userConfig(t).ApplyProject(f); got.PendingProject != nil {
			t.Errorf("%s: nothing to accept, pending %+v", text, got.PendingProject)
		}
	}
}

func TestPowers(t *testing.T) {
	for _, tt := range []struct {
		settings string
		want     []string
	}{
		{`{}`, nil},
		{`{"hooks":{"hooks":{"AfterTool":[{"command":"a"},{"command":"b"}]}}}`, []string{"adds hook AfterTool: a", "adds hook AfterTool: b"}},
		{`{"hooks":{"disabled":["guard"]}}`, []string{"changes hook settings"}},
		{`{"mcpServers":[1]}`, []string{"adds MCP servers"}},
		{`{"mcpServers":{"s":{"url":"http://h/sse"}}}`, []string{"adds MCP server s (http://h/sse)"}},
	} {
		root := t.TempDir()
		write(t, ProjectSettingsPath(root), tt.settings)
		f, err := ReadProjectFile(root)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Project.Powers(); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Powers = %q, want %q", tt.settings, got, tt.want)
		}
	}
}

func TestAcceptProject(t *testing.T) {
	user := userConfig(t)
	root := t.TempDir()
	if _, _, err := user.AcceptProject(root); err == nil {
		t.Error("accepting a folder without settings must fail")
	}
	write(t, ProjectSettingsPath(root), powerful)
	f, adds, err := user.AcceptProject(root)
	if err != nil || len(adds) != 5 {
		t.Fatalf("AcceptProject = %q, %v", adds, err)
	}
	if !user.Accepted(f.Path, f.Hash) {
		t.Error("not recorded")
	}
	data, err := os.ReadFile(filepath.Join(user.ConfigDir(), acceptedName))
	if err != nil || len(data) == 0 {
		t.Errorf("record: %v", err)
	}
	if err := (&Config{}).Accept(f.Path, f.Hash); err == nil {
		t.Error("accepting without a user config directory must fail")
	}
}

// TestSaveProjectAllowRule: the user's own "always allow in this project"
// keeps an accepted (or new) file accepted, and accepts nothing else.
func TestSaveProjectAllowRule(t *testing.T) {
	user := userConfig(t)
	fresh := t.TempDir()
	if err := user.SaveProjectAllowRule(fresh, "shell(make)"); err != nil {
		t.Fatal(err)
	}
	f, _ := ReadProjectFile(fresh)
	if got := user.ApplyProject(f); got.PendingProject != nil || !slices.Contains(got.Permissions.Allow, "shell(make)") {
		t.Errorf("the user's own rule was held back: %+v", got.PendingProject)
	}
	foreign := t.TempDir()
	write(t, ProjectSettingsPath(foreign), powerful)
	if err := user.SaveProjectAllowRule(foreign, "shell(go)"); err != nil {
		t.Fatal(err)
	}
	f, _ = ReadProjectFile(foreign)
	if got := user.ApplyProject(f); got.PendingProject == nil {
		t.Error("saving one rule must not accept the rest of an unaccepted file")
	}
}
