package cli

import (
	"flag"

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
}

// Register adds the flags to fs.
func (f *Flags) Register(fs *flag.FlagSet) {
	fs.StringVar(&f.Script, "script", "", "run the scripted model from this JSON `file` instead of Gemini (see agent/model/scripted/README.md)")
	fs.BoolVar(&f.Demo, "demo", false, "run the built-in demo model: no API key or network needed")
	fs.StringVar(&f.Model, "model", "", "the `model` to use (default "+config.DefaultModel+")")
	fs.StringVar(&f.Provider, "provider", "", "model `provider`: gemini (default) or openai (any OpenAI-compatible server)")
	fs.StringVar(&f.LogFile, "log-file", "", "write logs to this `file` instead of stderr")
	fs.StringVar(&f.LogLevel, "log-level", "", "log `level`: debug, info, warn or error")
	fs.StringVar(&f.Sandbox, "sandbox", "", "run shell commands in a sandbox `mode`: off, read-only or workspace-write (Linux, bubblewrap)")
	fs.IntVar(&f.MaxTurnRequests, "max-turn-requests", 0, "model requests allowed per prompt (default 100)")
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
	if f.MaxTurnRequests > 0 {
		cfg.MaxTurnRequests = f.MaxTurnRequests
	}
	if _, err := sandbox.ParseMode(cfg.Sandbox); err != nil {
		return cfg, err
	}
	return cfg, nil
}
