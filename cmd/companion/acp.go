package main

import (
	"context"
	"flag"
	"io"
	"log/slog"

	"companion/acp"
	"companion/agent/memory"
	"companion/config"
	"companion/tools"
)

// acpFlags are the flags of `companion acp`; each overrides a setting.
type acpFlags struct {
	script, model, logFile, logLevel, provider string
	demo                                       bool
	maxTurnRequests                            int
}

func (f *acpFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.script, "script", "", "run the scripted model from this JSON `file` instead of Gemini (see agent/model/scripted/README.md)")
	fs.BoolVar(&f.demo, "demo", false, "run the built-in demo model: no API key or network needed")
	fs.StringVar(&f.model, "model", "", "the `model` to use (default "+config.DefaultModel+")")
	fs.StringVar(&f.provider, "provider", "", "model `provider`: gemini (default) or openai (any OpenAI-compatible server)")
	fs.StringVar(&f.logFile, "log-file", "", "write logs to this `file` instead of stderr")
	fs.StringVar(&f.logLevel, "log-level", "", "log `level`: debug, info, warn or error")
	fs.IntVar(&f.maxTurnRequests, "max-turn-requests", 0, "model requests allowed per prompt (default 100)")
}

// loadConfig reads settings and environment, then applies the flags.
func loadConfig(getenv func(string) string, f *acpFlags) (config.Config, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return cfg, err
	}
	if f.demo {
		cfg.Script = "demo"
	}
	for dst, v := range map[*string]string{&cfg.Script: f.script, &cfg.Model: f.model, &cfg.Provider: f.provider,
		&cfg.LogFile: f.logFile, &cfg.LogLevel: f.logLevel} {
		if v != "" {
			*dst = v
		}
	}
	if f.maxTurnRequests > 0 {
		cfg.MaxTurnRequests = f.maxTurnRequests
	}
	return cfg, nil
}

// serveACP wires the model, tools and the ACP server, and serves stdio.
func serveACP(ctx context.Context, cfg config.Config, reload func() (config.Config, error), in io.Reader, out io.Writer, log *slog.Logger) error {
	models := &modelSource{cfg: cfg, log: log}
	defer models.close()
	srv := acp.NewServer(acp.Options{
		Name:         "companion",
		Version:      version,
		Config:       cfg,
		Model:        models.get,
		Tools:        builtinTools,
		ReloadConfig: reload,
		Log:          log,
	})
	return srv.Serve(ctx, in, out)
}

// builtinTools is every built-in tool, configured from cfg.
func builtinTools(cfg config.Config) *tools.Registry {
	all := tools.ReadOnly(tools.ReadOnlyOptions{})
	all = append(all, tools.Editing(tools.EditOptions{})...)
	all = append(all, tools.Extras(tools.ExtraOptions{AllowPrivate: cfg.AllowPrivateFetch})...)
	all = append(all, tools.Shell(tools.ShellOptions{})...)
	if dir := cfg.ConfigDir(); dir != "" {
		names := cfg.MemoryFileNames
		if len(names) == 0 {
			names = memory.DefaultFileNames()
		}
		all = append(all, memory.SaveMemoryTool(dir, names[0]))
	}
	return tools.NewRegistry(all...)
}
