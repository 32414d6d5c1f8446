package config

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestTrustFolder(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	env := envFrom(map[string]string{"HOME": home})
	write(t, filepath.Join(home, ".config", "companion", "settings.json"), `{"folderTrust":{"enabled":true,"trusted":["/elsewhere"]}}`)
	cfg, err := Load(env)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.FolderTrust.Trusts(ws) {
		t.Fatal("untrusted folder trusted")
	}
	if _, err := cfg.TrustFolder(ws); err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.TrustFolder(ws); err != nil { // twice is once
		t.Fatal(err)
	}
	again, err := Load(env)
	if err != nil {
		t.Fatal(err)
	}
	if !again.FolderTrust.Trusts(filepath.Join(ws, "a")) || !again.FolderTrust.Trusts("/elsewhere") {
		t.Fatalf("trusted = %v", again.FolderTrust.Trusted)
	}
	if got := again.TrustedFolders(); !slices.Equal(got, []string{ws}) {
		t.Errorf("TrustedFolders = %v", got)
	}
	if _, removed, err := again.RevokeFolder(ws); err != nil || !removed || again.FolderTrust.Trusts(ws) {
		t.Fatalf("revoke = %v, %v; trusted %v", removed, err, again.FolderTrust.Trusted)
	}
	if last, _ := Load(env); last.FolderTrust.Trusts(ws) {
		t.Error("revoked folder trusted after reload")
	}
	var none Config
	if _, err := none.TrustFolder(ws); err == nil {
		t.Error("TrustFolder without a config directory succeeded")
	}
}
