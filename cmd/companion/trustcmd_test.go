package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/config"
)

func TestTrust(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	run1 := runIn(home)
	settings := filepath.Join(home, ".config", "companion", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"folderTrust":{"enabled":true}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	trusts := func() bool {
		cfg, err := config.Load(homeEnv(home))
		if err != nil {
			t.Fatal(err)
		}
		return cfg.FolderTrust.Trusts(filepath.Join(ws, "sub"))
	}
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"trust", ws, "extra"}, 2},
		{[]string{"trust", "--list", ws}, 2},
		{[]string{"trust", filepath.Join(ws, "missing")}, 1},
	} {
		if code, out := run1(tt.args...); code != tt.code {
			t.Errorf("%q = %d, want %d\n%s", tt.args, code, tt.code, out)
		}
	}
	if trusts() {
		t.Fatal("folder trusted before companion trust")
	}
	if code, out := run1("trust", ws); code != 0 || !strings.Contains(out, "trusted "+ws) {
		t.Fatalf("trust = %d\n%s", code, out)
	}
	if !trusts() {
		t.Fatal("folder not trusted after companion trust")
	}
	if code, out := run1("trust", "--list"); code != 0 || strings.TrimSpace(out) != ws {
		t.Errorf("trust --list = %d %q", code, out)
	}
	if code, out := run1("trust", "--revoke", ws); code != 0 || !strings.Contains(out, "revoked") {
		t.Fatalf("trust --revoke = %d\n%s", code, out)
	}
	if trusts() {
		t.Fatal("folder still trusted after revoke")
	}
	if code, out := run1("trust", "--revoke", ws); code != 0 || !strings.Contains(out, "was not trusted") {
		t.Errorf("second revoke = %d\n%s", code, out)
	}
}
