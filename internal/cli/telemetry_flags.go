package cli

import (
	"flag"
	"strconv"

	"companion/config"
)

// TelemetryFlags are the --telemetry* flags; each one set overrides its
// "telemetry" setting and the GEMINI_TELEMETRY_* variable.
type TelemetryFlags struct {
	Enabled, LogPrompts                 optBool
	Target, Endpoint, Protocol, Outfile string
}

// register adds the flags to fs.
func (t *TelemetryFlags) register(fs *flag.FlagSet) {
	fs.Var(&t.Enabled, "telemetry", "export OpenTelemetry traces, metrics and logs (see docs/telemetry.md); --telemetry=false turns it off")
	fs.StringVar(&t.Target, "telemetry-target", "", "telemetry `target`: local or gcp (through an OTLP collector)")
	fs.StringVar(&t.Endpoint, "telemetry-otlp-endpoint", "", "the OTLP collector `url` telemetry goes to")
	fs.StringVar(&t.Protocol, "telemetry-otlp-protocol", "", "the OTLP `protocol`: grpc (default) or http")
	fs.StringVar(&t.Outfile, "telemetry-outfile", "", "write telemetry to this `file`, one JSON object a line, instead of a collector")
	fs.Var(&t.LogPrompts, "telemetry-log-prompts", "include prompt text and tool arguments in telemetry")
}

// apply lays the flags that were set over dst.
func (t *TelemetryFlags) apply(dst *config.Telemetry) {
	if t.Enabled.set {
		dst.Enabled = &t.Enabled.v
	}
	if t.LogPrompts.set {
		dst.LogPrompts = &t.LogPrompts.v
	}
	for p, v := range map[*string]string{&dst.Target: t.Target, &dst.OTLPEndpoint: t.Endpoint,
		&dst.OTLPProtocol: t.Protocol, &dst.Outfile: t.Outfile} {
		if v != "" {
			*p = v
		}
	}
}

// optBool is a boolean flag that knows whether it was given.
type optBool struct{ v, set bool }

func (b *optBool) String() string {
	if b == nil || !b.set {
		return ""
	}
	return strconv.FormatBool(b.v)
}

func (b *optBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	b.v, b.set = v, true
	return nil
}

// IsBoolFlag lets the flag stand alone (--telemetry).
func (b *optBool) IsBoolFlag() bool { return true }
