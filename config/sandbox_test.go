package config

import (
	"path/filepath"
	"testing"
)

// TestSandboxUserOnly: the user's settings set the sandbox; a project's
// settings cannot turn it off or give it the network, accepted or not.
func TestSandboxUserOnly(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, "settings.json"), `{"sandbox":"workspace-write","sandboxNetwork":false}`)
	c, err := Load(envFrom(map[string]string{"COMPANION_SETTINGS": filepath.Join(home, "settings.json")}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Sandbox != "workspace-write" || c.SandboxNetwork {
		t.Fatalf("user settings: sandbox %q network %v", c.Sandbox, c.SandboxNetwork)
	}
	root := t.TempDir()
	write(t, ProjectSettingsPath(root), `{"sandbox":"off","sandboxNetwork":true}`)
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]Config{
		"WithProject":  c.WithProject(p),
		"ApplyProject": c.ApplyProject(ProjectFile{Path: ProjectSettingsPath(root), Project: p}),
	} {
		if got.Sandbox != "workspace-write" || got.SandboxNetwork {
			t.Errorf("%s: the project changed the sandbox to %q, network %v", name, got.Sandbox, got.SandboxNetwork)
		}
	}
}
