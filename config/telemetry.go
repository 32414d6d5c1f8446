package config

import (
	"fmt"
	"strings"
)

// Telemetry is the "telemetry" settings block, named as Gemini CLI names
// it so its users can copy theirs. Only the user's settings, the
// environment (GEMINI_TELEMETRY_*) and the --telemetry* flags set it: a
// project's settings cannot, so a repository cannot send what the user
// does to an endpoint of its choosing (Project has no such field).
// Nothing is exported unless Enabled.
type Telemetry struct {
	Enabled *bool `json:"enabled,omitempty"`
	// Target is "local" (OTLP to a collector, or the file in Outfile) or
	// "gcp" (accepted: export goes through an OTLP collector that
	// forwards to Google Cloud, see docs/telemetry.md).
	Target string `json:"target,omitempty"`
	// OTLPEndpoint is the collector, as "http://host:4318" (http) or
	// "host:4317" / "http://host:4317" (grpc).
	OTLPEndpoint string `json:"otlpEndpoint,omitempty"`
	// OTLPProtocol is "grpc" (the default, as in Gemini CLI) or "http".
	OTLPProtocol string `json:"otlpProtocol,omitempty"`
	// Outfile writes everything to this file, one JSON object a line,
	// instead of a collector.
	Outfile string `json:"outfile,omitempty"`
	// LogPrompts adds prompt text and tool arguments to the export.
	LogPrompts *bool `json:"logPrompts,omitempty"`
}

// On reports whether telemetry is enabled.
func (t Telemetry) On() bool { return t.Enabled != nil && *t.Enabled }

// Prompts reports whether prompt text and tool arguments are exported.
func (t Telemetry) Prompts() bool { return t.LogPrompts != nil && *t.LogPrompts }

// Check reports a target or protocol companion does not know.
func (t Telemetry) Check() error {
	switch t.Target {
	case "", "local", "gcp":
	default:
		return fmt.Errorf("telemetry.target %q: want local or gcp", t.Target)
	}
	switch t.OTLPProtocol {
	case "", "grpc", "http":
	default:
		return fmt.Errorf("telemetry.otlpProtocol %q: want grpc or http", t.OTLPProtocol)
	}
	return nil
}

// applyTelemetryEnv lets the GEMINI_TELEMETRY_* variables override the
// settings.
func applyTelemetryEnv(c *Config, lookup func(string) (string, string)) {
	t := &c.Telemetry
	for _, e := range []struct {
		dst       **bool
		key, name string
	}{
		{&t.Enabled, "telemetry.enabled", "GEMINI_TELEMETRY_ENABLED"},
		{&t.LogPrompts, "telemetry.logPrompts", "GEMINI_TELEMETRY_LOG_PROMPTS"},
	} {
		if v, src := lookup(e.name); v != "" {
			b := strings.EqualFold(v, "true") || v == "1"
			*e.dst, c.Sources[e.key] = &b, src
		}
	}
	for _, e := range []struct {
		dst       *string
		key, name string
	}{
		{&t.Target, "telemetry.target", "GEMINI_TELEMETRY_TARGET"},
		{&t.OTLPEndpoint, "telemetry.otlpEndpoint", "GEMINI_TELEMETRY_OTLP_ENDPOINT"},
		{&t.OTLPProtocol, "telemetry.otlpProtocol", "GEMINI_TELEMETRY_OTLP_PROTOCOL"},
		{&t.Outfile, "telemetry.outfile", "GEMINI_TELEMETRY_OUTFILE"},
	} {
		if v, src := lookup(e.name); v != "" {
			*e.dst, c.Sources[e.key] = v, src
		}
	}
}
