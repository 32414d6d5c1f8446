package credentials

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestFileStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "companion")
	s := New(dir, func(k string) string { return map[string]string{"COMPANION_KEYCHAIN": "off"}[k] })
	if v, err := s.Get(GeminiAPIKey); err != nil || v != "" {
		t.Fatalf("empty store: %q, %v", v, err)
	}
	where, err := s.Set(GeminiAPIKey, "k1")
	if err != nil || where != filepath.Join(dir, FileName) {
		t.Fatalf("Set = %q, %v", where, err)
	}
	if _, err := s.Set(OpenAIAPIKey, "k2"); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(where); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("file mode %v, %v; want 0600", fi.Mode(), err)
		}
	}
	if v, _ := s.Get(GeminiAPIKey); v != "k1" {
		t.Errorf("Get = %q", v)
	}
	if err := s.Delete(GeminiAPIKey); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get(GeminiAPIKey); v != "" {
		t.Errorf("after Delete: %q", v)
	}
	if v, _ := s.Get(OpenAIAPIKey); v != "k2" {
		t.Errorf("the other key went too: %q", v)
	}
	if err := s.Delete("never-stored"); err != nil {
		t.Errorf("deleting a key never stored: %v", err)
	}
	if err := os.WriteFile(where, []byte("{broken"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(GeminiAPIKey); err == nil {
		t.Error("a damaged file read without error")
	}
}

func TestKeychainOnlyInADesktopSession(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the rule is Linux's")
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if New(t.TempDir(), env(nil)).keychain {
		t.Error("keychain used without a session bus")
	}
	if !New(t.TempDir(), env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"})).keychain {
		t.Error("keychain not used in a desktop session")
	}
	if New(t.TempDir(), env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", "COMPANION_KEYCHAIN": "off"})).keychain {
		t.Error("COMPANION_KEYCHAIN=off ignored")
	}
}
