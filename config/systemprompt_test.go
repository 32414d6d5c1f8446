package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSystemPromptSetting reads "systemPrompt.disable" from the user's
// settings; a project's settings cannot set it.
func TestSystemPromptSetting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte(`{"systemPrompt":{"disable":["git","listing"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(func(k string) string {
		if k == "COMPANION_SETTINGS" {
			return path
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.SystemPrompt.Disable, []string{"git", "listing"}) {
		t.Errorf("disable = %v", c.SystemPrompt.Disable)
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".companion"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ProjectSettingsPath(root), []byte(`{"systemPrompt":{"disable":["safety"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.WithProject(p).SystemPrompt.Disable; !slices.Equal(got, []string{"git", "listing"}) {
		t.Errorf("a project changed systemPrompt.disable to %v", got)
	}
}
