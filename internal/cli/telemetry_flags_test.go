package cli

import (
	"flag"
	"io"
	"testing"
)

// TestTelemetryFlags: the --telemetry* flags override the environment,
// and an unknown protocol is refused.
func TestTelemetryFlags(t *testing.T) {
	env := map[string]string{"HOME": t.TempDir(), "COMPANION_SETTINGS": "", "GEMINI_TELEMETRY_ENABLED": "false",
		"GEMINI_TELEMETRY_OTLP_PROTOCOL": "grpc"}
	getenv := func(k string) string { return env[k] }
	parse := func(args ...string) Flags {
		var f Flags
		fs := flag.NewFlagSet("acp", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		f.Register(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return f
	}
	cfg, err := LoadConfig(getenv, parse("--telemetry", "--telemetry-otlp-protocol", "http", "--telemetry-outfile", "/tmp/t.jsonl",
		"--telemetry-target", "gcp", "--telemetry-log-prompts"))
	if err != nil {
		t.Fatal(err)
	}
	tel := cfg.Telemetry
	if !tel.On() || !tel.Prompts() || tel.OTLPProtocol != "http" || tel.Outfile != "/tmp/t.jsonl" || tel.Target != "gcp" {
		t.Fatalf("telemetry = %+v", tel)
	}
	if cfg, err = LoadConfig(getenv, parse()); err != nil || cfg.Telemetry.On() {
		t.Fatalf("without flags: %+v, %v", cfg.Telemetry, err)
	}
	if cfg, err = LoadConfig(getenv, parse("--telemetry=false")); err != nil || cfg.Telemetry.On() {
		t.Fatalf("--telemetry=false: %+v, %v", cfg.Telemetry, err)
	}
	if _, err := LoadConfig(getenv, parse("--telemetry-otlp-protocol", "udp")); err == nil {
		t.Fatal("an unknown protocol was accepted")
	}
}
