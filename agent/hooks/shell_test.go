package hooks

import (
	"errors"
	"testing"
)

// TestHookShell: hooks run under bash wherever it is found, Windows
// included (Git Bash), since hook scripts are written for it; without
// bash, Windows falls back to %ComSpec% and other systems to sh.
func TestHookShell(t *testing.T) {
	found := func(string) (string, error) { return "/usr/bin/bash", nil }
	missing := func(string) (string, error) { return "", errors.New("not found") }
	comspec := func(k string) string {
		if k == "ComSpec" {
			return `C:\Windows\system32\cmd.exe`
		}
		return ""
	}
	tests := []struct {
		name, goos string
		lookPath   func(string) (string, error)
		want       string
	}{
		{"linux bash", "linux", found, "/usr/bin/bash"},
		{"linux without bash", "linux", missing, "sh"},
		{"windows git bash", "windows", found, "/usr/bin/bash"},
		{"windows without bash", "windows", missing, `C:\Windows\system32\cmd.exe`},
	}
	for _, tt := range tests {
		if got := hookShell(tt.goos, tt.lookPath, comspec); got != tt.want {
			t.Errorf("%s: hookShell = %q, want %q", tt.name, got, tt.want)
		}
	}
}
