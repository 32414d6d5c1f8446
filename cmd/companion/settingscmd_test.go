package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSettingsAccept(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	run1 := runIn(home)
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"settings"}, 2},
		{[]string{"settings", "show"}, 2},
		{[]string{"settings", "accept", ws, "extra"}, 2},
		{[]string{"settings", "accept", filepath.Join(ws, "missing")}, 1},
		{[]string{"settings", "accept", ws}, 1}, // no settings file yet
	} {
		if code, out := run1(tt.args...); code != tt.code {
			t.Errorf("%q = %d, want %d\n%s", tt.args, code, tt.code, out)
		}
	}
	settings := filepath.Join(ws, ".companion", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte(`{"permissions":{"allow":["shell(make)"]}}`), 0o644)
	code, out := run1("settings", "accept", ws)
	if code != 0 || !strings.Contains(out, "accepted") || !strings.Contains(out, "allows shell(make)") {
		t.Fatalf("accept = %d\n%s", code, out)
	}
	record, err := os.ReadFile(filepath.Join(home, ".config", "companion", "accepted-settings.json"))
	if err != nil || !strings.Contains(string(record), "sha256:") {
		t.Errorf("accepted record = %s, %v", record, err)
	}
}
