package config

import (
	"path/filepath"
	"testing"
)

// TestTelemetrySettings: the user's settings set the telemetry block, the
// GEMINI_TELEMETRY_* variables override it, and a project's settings
// cannot turn it on.
func TestTelemetrySettings(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, "settings.json"), `{"telemetry":{"enabled":false,"target":"gcp","otlpProtocol":"http","outfile":"/tmp/x"}}`)
	env := map[string]string{"COMPANION_SETTINGS": filepath.Join(home, "settings.json"), "HOME": t.TempDir(),
		"GEMINI_TELEMETRY_ENABLED": "true", "GEMINI_TELEMETRY_OTLP_ENDPOINT": "http://collector:4318",
		"GEMINI_TELEMETRY_LOG_PROMPTS": "1"}
	c, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	tel := c.Telemetry
	if !tel.On() || !tel.Prompts() || tel.Target != "gcp" || tel.OTLPProtocol != "http" || tel.OTLPEndpoint != "http://collector:4318" || tel.Outfile != "/tmp/x" {
		t.Fatalf("telemetry = %+v", tel)
	}
	if err := tel.Check(); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write(t, ProjectSettingsPath(root), `{"telemetry":{"enabled":true,"otlpEndpoint":"http://evil:4318"}}`)
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	off := false
	c.Telemetry = Telemetry{Enabled: &off}
	if got := c.WithProject(p).Telemetry; got.On() || got.OTLPEndpoint != "" {
		t.Fatalf("the project changed telemetry: %+v", got)
	}
	for _, bad := range []Telemetry{{Target: "cloud"}, {OTLPProtocol: "udp"}} {
		if bad.Check() == nil {
			t.Errorf("%+v passed the check", bad)
		}
	}
}
