package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"companion/config"
	"companion/tools/sandbox"
)

// Flags are the model and logging flags of `companion acp` (and of
// `companion run`); each set one overrides a setting.
type Flags struct {
	Script, Model, LogFile, LogLevel, Provider string
	// Sandbox overrides the "sandbox" setting.
	Sandbox         string
	Demo            bool
	MaxTurnRequests int
	// Debug logs at debug level (--debug), unless --log-level says
	// otherwise.
	Debug bool
	// Telemetry overrides the "telemetry" settings (telemetry_flags.go).
	Telemetry TelemetryFlags
}

// Register adds the flags to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Script, "script", "", "run the scripted model from this JSON `file` instead of Gemini (see agent/model/scripted/README.md)")
	fs.BoolVar(&f.Demo, "demo", false, "run the built-in demo model: no API key or network needed")
	fs.StringVar(&f.Model, "model", "", "the `model` to use (default "+config.DefaultModel+")")
	fs.StringVar(&f.Model, "m", "", "the `model` to use (same as --model)")
	fs.StringVar(&f.Provider, "provider", "", "model `provider`: gemini (default) or openai (any OpenAI-compatible server)")
	fs.StringVar(&f.LogFile, "log-file", "", "write logs to this `file` instead of stderr")
	fs.StringVar(&f.LogLevel, "log-level", "", "log `level`: debug, info, warn or error")
	fs.BoolVar(&f.Debug, "debug", false, "log at debug level (same as --log-level debug)")
	fs.StringVar(&f.Sandbox, "sandbox", "", "run shell commands in a sandbox `mode`: off, read-only or workspace-write (Linux, bubblewrap)")
	fs.IntVar(&f.MaxTurnRequests, "max-turn-requests", 0, "at most `n` model requests per prompt (default 100)")
	f.Telemetry.register(fs)
}

// LoadConfig reads settings and environment, then applies the flags.
func LoadConfig(getenv func(string) string, f Flags) (config.Config, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return cfg, err
	}
	if f.Demo {
		cfg.Script = "demo"
	}
	for dst, v := range map[*string]string{&cfg.Script: f.Script, &cfg.Model: f.Model, &cfg.Provider: f.Provider,
		&cfg.LogFile: f.LogFile, &cfg.LogLevel: f.LogLevel, &cfg.Sandbox: f.Sandbox} {
		if v != "" {
			*dst = v
		}
	}
	if f.Debug && f.LogLevel == "" {
		cfg.LogLevel = "debug"
	}
	if f.MaxTurnRequests > 0 {
		cfg.MaxTurnRequests = f.MaxTurnRequests
	}
	if _, err := sandbox.ParseMode(cfg.Sandbox); err != nil {
		return cfg, err
	}
	if err := cfg.WebSearch.Check(); err != nil {
		return cfg, err
	}
	fillStoredKeys(&cfg, getenv)
	f.Telemetry.apply(&cfg.Telemetry)
	return cfg, cfg.Telemetry.Check()
}

// PrintFlags writes fs's flags as a person types them: two dashes for
// long names, one for one-letter names, a short name beside the long one
// it stands for ("-p, --prompt PROMPT"), each flag's help on the next line.
func PrintFlags(w io.Writer, fs *flag.FlagSet) {
	var all []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { all = append(all, f) })
	for _, f := range all {
		if len(f.Name) == 1 && longOf(all, f) != nil {
			continue // printed beside its long name
		}
		names := "--" + f.Name
		if len(f.Name) == 1 {
			names = "-" + f.Name
		}
		if short := shortOf(all, f); short != nil {
			names = "-" + short.Name + ", " + names
		}
		arg, help := flag.UnquoteUsage(f)
		if arg != "" {
			names += " " + strings.ToUpper(arg)
		}
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			help += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "  %s\n      %s\n", names, help)
	}
}

// shortOf is the one-letter flag bound to the same value as f, if any.
func shortOf(all []*flag.Flag, f *flag.Flag) *flag.Flag {
	if len(f.Name) == 1 {
		return nil
	}
	i := slices.IndexFunc(all, func(o *flag.Flag) bool { return len(o.Name) == 1 && o.Value == f.Value })
	if i < 0 {
		return nil
	}
	return all[i]
}

// longOf is the long flag a one-letter flag stands for, if any.
func longOf(all []*flag.Flag, f *flag.Flag) *flag.Flag {
	i := slices.IndexFunc(all, func(o *flag.Flag) bool { return len(o.Name) > 1 && o.Value == f.Value })
	if i < 0 {
		return nil
	}
	return all[i]
}
