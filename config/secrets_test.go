package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestSecrets(t *testing.T) {
	c := Config{APIKey: "gemini-key-1", OpenAI: OpenAI{APIKey: "openai-key-2",
		Headers: map[string]string{"Authorization": "Bearer tok-3", "X-Title": "companion"}}}
	got := c.Secrets()
	slices.Sort(got)
	if want := []string{"Bearer tok-3", "gemini-key-1", "openai-key-2", "tok-3"}; !slices.Equal(got, want) {
		t.Errorf("Secrets = %q, want %q", got, want)
	}
	if got := (&Config{}).Secrets(); len(got) != 0 {
		t.Errorf("no keys: Secrets = %q", got)
	}
}

func TestShellEnvironmentSetting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, []byte(`{"shellEnvironment":{"include":["GITHUB_TOKEN"],"exclude":["AWS_*"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(func(k string) string { return map[string]string{"COMPANION_SETTINGS": path}[k] })
	if err != nil {
		t.Fatal(err)
	}
	if got := c.ShellEnvironment; !slices.Equal(got.Include, []string{"GITHUB_TOKEN"}) || !slices.Equal(got.Exclude, []string{"AWS_*"}) {
		t.Errorf("ShellEnvironment = %+v", got)
	}
}
