package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/config"
)

func writeTestFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConfigShow prints where each setting came from: the user file, the
// project's, a flag; a key's value never appears.
func TestConfigShow(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	user := filepath.Join(home, ".config", "companion", "settings.json")
	writeTestFile(t, user, "{\n // mine\n \"apiKey\": \"sekrit\", \"logLevel\": \"info\",\n}")
	writeTestFile(t, config.ProjectSettingsPath(ws), `{"model": "proj-model", "compressionThreshold": 0.6}`)
	run1 := runIn(home)
	code, out := run1("config", "show", "--json", "--dir", ws, "--log-level", "debug")
	if code != 0 {
		t.Fatalf("config show: %d %s", code, out)
	}
	var rep configReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	src := map[string]string{}
	for _, s := range rep.Settings {
		src[s.Key] = s.Source
	}
	want := map[string]string{"apiKey": user, "logLevel": "flag", "model": config.ProjectSettingsPath(ws),
		"compressionThreshold": config.ProjectSettingsPath(ws), "models": "default"}
	for k, v := range want {
		if src[k] != v {
			t.Errorf("%s from %q, want %q", k, src[k], v)
		}
	}
	if strings.Contains(out, "sekrit") || !rep.Trusted {
		t.Errorf("key shown or trust wrong:\n%s", out)
	}
	writeTestFile(t, user, `{"folderTrust": {"enabled": true}}`)
	code, out = run1("config", "show", "--dir", ws)
	if code != 0 || !strings.Contains(out, "not trusted") || strings.Contains(out, "proj-model") {
		t.Errorf("untrusted: %d\n%s", code, out)
	}
	if code, _ := run1("config"); code != 2 {
		t.Error("bare config must be a usage error")
	}
}
