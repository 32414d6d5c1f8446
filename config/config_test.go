package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func envFrom(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name      string
		settings  string
		gemini    string
		env       map[string]string
		wantModel string
		wantKey   string
		creds     bool
	}{
		{"defaults", "", "", nil, DefaultModel, "", false},
		{"settings file", `{"model":"m-set","apiKey":"k1"}`, "", nil, "m-set", "k1", true},
		{"env wins", `{"model":"m-set","apiKey":"k1"}`, "", map[string]string{"GEMINI_API_KEY": "k2", "GEMINI_MODEL": "m-env"}, "m-env", "k2", true},
		{"google key", "", "", map[string]string{"GOOGLE_API_KEY": "g"}, DefaultModel, "g", true},
		{"gemini cli model (object)", "", `{"model":{"name":"gemini-cli-model"}}`, nil, "gemini-cli-model", "", false},
		{"gemini cli model (string)", "", `{"model":"old-style"}`, nil, "old-style", "", false},
		{"own settings beat gemini cli", `{"model":"mine"}`, `{"model":"theirs"}`, nil, "mine", "", false},
		{"vertex", "", "", map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "true", "GOOGLE_CLOUD_PROJECT": "p"}, DefaultModel, "", true},
		{"script", `{"script":"demo"}`, "", nil, DefaultModel, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			env := map[string]string{"HOME": home}
			for k, v := range tt.env {
				env[k] = v
			}
			if tt.settings != "" {
				write(t, filepath.Join(home, ".config", "companion", "settings.json"), tt.settings)
			}
			if tt.gemini != "" {
				write(t, filepath.Join(home, ".gemini", "settings.json"), tt.gemini)
			}
			c, err := Load(envFrom(env))
			if err != nil {
				t.Fatal(err)
			}
			if c.Model != tt.wantModel || c.APIKey != tt.wantKey || c.HasCredentials() != tt.creds {
				t.Errorf("got model %q key %q creds %v", c.Model, c.APIKey, c.HasCredentials())
			}
			if c.StateDir != filepath.Join(home, ".local", "state", "companion") {
				t.Errorf("state dir = %q", c.StateDir)
			}
		})
	}
}

func TestBadSettings(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".config", "companion", "settings.json"), `{"model":`)
	if _, err := Load(envFrom(map[string]string{"HOME": home})); err == nil {
		t.Error("invalid JSON accepted")
	}
}

func TestFolderTrust(t *testing.T) {
	f := FolderTrust{Enabled: true, Trusted: []string{"/home/u/work"}}
	for dir, want := range map[string]bool{"/home/u/work": true, "/home/u/work/x": true, "/home/u/workx": false, "/etc": false} {
		if got := f.Trusts(dir); got != want {
			t.Errorf("Trusts(%q) = %v", dir, got)
		}
	}
	if !(FolderTrust{}).Trusts("/anything") {
		t.Error("trust disabled must trust everything")
	}
}

func TestProjectRules(t *testing.T) {
	root := t.TempDir()
	write(t, ProjectSettingsPath(root), `{"other":1,"permissions":{"deny":["shell(rm)"]}}`)
	for range 2 {
		if err := AddProjectAllowRule(root, "shell(git)"); err != nil {
			t.Fatal(err)
		}
	}
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Permissions.Allow) != 1 || p.Permissions.Allow[0] != "shell(git)" || p.Permissions.Deny[0] != "shell(rm)" {
		t.Errorf("project permissions = %+v", p.Permissions)
	}
	data, _ := os.ReadFile(ProjectSettingsPath(root))
	if !strings.Contains(string(data), `"other": 1`) {
		t.Errorf("other settings lost: %s", data)
	}
}

func TestWithProject(t *testing.T) {
	user := Config{Model: "u", Models: []string{"u"}, Permissions: Permissions{Allow: []string{"shell(ls)"}}}
	got := user.WithProject(Project{Model: "p", CompressionThreshold: 0.7, Permissions: Permissions{Allow: []string{"shell(make)"}, Deny: []string{"shell(rm)"}}})
	if got.Model != "p" || got.CompressionThreshold != 0.7 || len(got.Models) != 1 {
		t.Errorf("scalars: %+v", got)
	}
	if strings.Join(got.Permissions.Allow, ",") != "shell(ls),shell(make)" || got.Permissions.Deny[0] != "shell(rm)" {
		t.Errorf("rules: %+v", got.Permissions)
	}
	if len(user.Permissions.Allow) != 1 {
		t.Errorf("user config changed: %+v", user.Permissions)
	}
}
