package cli

import (
	"path/filepath"
	"testing"

	"companion/tools/sandbox"
)

// TestSandboxFlag: --sandbox overrides the setting, a mode that is none of
// the modes is refused, and the shell's sandbox follows the configuration.
func TestSandboxFlag(t *testing.T) {
	getenv := func(k string) string {
		if k == "COMPANION_SETTINGS" {
			return filepath.Join(t.TempDir(), "settings.json")
		}
		return ""
	}
	cfg, err := LoadConfig(getenv, Flags{Sandbox: "workspace-write"})
	if err != nil || cfg.Sandbox != "workspace-write" {
		t.Fatalf("LoadConfig(--sandbox workspace-write) = %q, %v", cfg.Sandbox, err)
	}
	if sb := shellSandbox(cfg); sb.Mode != sandbox.WorkspaceWrite || sb.Network {
		t.Errorf("shellSandbox = %+v", sb)
	}
	if _, err := LoadConfig(getenv, Flags{Sandbox: "everything"}); err == nil {
		t.Error("LoadConfig(--sandbox everything) succeeded")
	}
	cfg.Sandbox = "bogus" // a configuration that skipped LoadConfig
	if sb := shellSandbox(cfg); sb.Mode != sandbox.ReadOnly {
		t.Errorf("shellSandbox(bogus) mode = %q, want the strictest", sb.Mode)
	}
	cfg.Sandbox = ""
	if sb := shellSandbox(cfg); sb.Active() {
		t.Errorf("shellSandbox(\"\") is active")
	}
}
