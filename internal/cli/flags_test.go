package cli

import (
	"flag"
	"path/filepath"
	"strings"
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
	if sb := shellSandbox(cfg, nil); sb.Mode != sandbox.WorkspaceWrite || sb.Network {
		t.Errorf("shellSandbox = %+v", sb)
	}
	if _, err := LoadConfig(getenv, Flags{Sandbox: "everything"}); err == nil {
		t.Error("LoadConfig(--sandbox everything) succeeded")
	}
	cfg.Sandbox = "bogus" // a configuration that skipped LoadConfig
	if sb := shellSandbox(cfg, nil); sb.Mode != sandbox.ReadOnly {
		t.Errorf("shellSandbox(bogus) mode = %q, want the strictest", sb.Mode)
	}
	cfg.Sandbox = ""
	if sb := shellSandbox(cfg, nil); sb.Active() {
		t.Errorf("shellSandbox(\"\") is active")
	}
}

// TestPrintFlags: long names get two dashes, a one-letter alias is shown
// beside its long name (not on a line of its own), with the value's name
// and a default that is not the zero value.
func TestPrintFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var f Flags
	f.Register(fs)
	var format string
	fs.StringVar(&format, "output-format", "text", "the output `format`")
	fs.StringVar(&format, "o", "text", "same")
	var b strings.Builder
	PrintFlags(&b, fs)
	got := b.String()
	for _, want := range []string{"  -m, --model MODEL\n", "  --debug\n      log at debug level", "  -o, --output-format FORMAT\n      the output format (default text)\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("PrintFlags lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "\n  -m\n") || strings.Contains(got, "\n  -o ") || strings.Contains(got, "\n  -model") {
		t.Errorf("an alias got a line of its own, or a long name one dash:\n%s", got)
	}
}

// TestDebugFlag: --debug logs at debug level unless --log-level says
// otherwise.
func TestDebugFlag(t *testing.T) {
	getenv := func(k string) string {
		if k == "COMPANION_SETTINGS" {
			return filepath.Join(t.TempDir(), "settings.json")
		}
		return ""
	}
	if cfg, err := LoadConfig(getenv, Flags{Debug: true}); err != nil || cfg.LogLevel != "debug" {
		t.Errorf("--debug: level %q, %v", cfg.LogLevel, err)
	}
	if cfg, err := LoadConfig(getenv, Flags{Debug: true, LogLevel: "error"}); err != nil || cfg.LogLevel != "error" {
		t.Errorf("--debug --log-level error: level %q, %v", cfg.LogLevel, err)
	}
}
