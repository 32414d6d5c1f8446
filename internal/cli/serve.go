package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"companion/acp"
	"companion/config"
	"companion/headless"
	"companion/host"
	"companion/secrets"
	"companion/tools/sandbox"
)

// ACP is what ServeACP needs besides the context.
type ACP struct {
	// Version is companion's, for initialize's agentInfo.
	Version string
	Config  config.Config
	// Reload re-reads the settings for authenticate; nil keeps Config.
	Reload func() (config.Config, error)
	// Getenv reads the environment Config came from; nil is os.Getenv.
	Getenv func(string) string
	In     io.Reader
	Out    io.Writer
	Log    *slog.Logger
	// Redactor keeps the configured keys out of session files and of what
	// the editor receives; the caller's log writer should go through it
	// too (see NewRedactor). nil makes one from Config.
	Redactor *secrets.Redactor
	// Sandbox picks the command sandbox's backend once for the whole
	// server (shell tool, hooks, MCP servers, initialize, /status); nil
	// makes one that probes this machine.
	Sandbox *sandbox.Prober
}

// NewRedactor returns the redactor for cfg's keys: what a front end
// wraps its log writer in and hands to ServeACP.
func NewRedactor(cfg config.Config) *secrets.Redactor {
	return secrets.NewRedactor(cfg.Secrets()...)
}

// redactReload makes reload teach red the keys of the settings it reads,
// so keys added before authenticate are redacted too.
func redactReload(reload func() (config.Config, error), red *secrets.Redactor) func() (config.Config, error) {
	if reload == nil {
		return nil
	}
	return func() (config.Config, error) {
		cfg, err := reload()
		if err == nil {
			red.Add(cfg.Secrets()...)
		}
		return cfg, err
	}
}

// ServeACP wires the model source, the built-in tools and the ACP server,
// and serves a.In and a.Out until a.In ends or ctx is cancelled.
func ServeACP(ctx context.Context, a ACP) error {
	red := a.Redactor
	if red == nil {
		red = NewRedactor(a.Config)
	}
	o := host.Options{Version: a.Version, Config: a.Config, Getenv: a.Getenv, Log: a.Log, Redact: red.Bytes, Sandbox: a.Sandbox}
	defer realHost(&o)()
	srv := acp.NewServer(acp.Options{Options: o, ReloadConfig: redactReload(a.Reload, red)})
	return srv.Serve(ctx, a.In, a.Out)
}

// realHost completes o as companion runs: its name, the real model source,
// the built-in tools and the host sharing one sandbox prober (made unless
// o has one), and the redactor of o.Config's keys unless o has one. The
// returned function releases the model source.
func realHost(o *host.Options) (release func()) {
	models := host.NewModels(o.Log)
	if o.Sandbox == nil {
		o.Sandbox = sandbox.NewProber(nil)
	}
	if o.Redact == nil {
		o.Redact = NewRedactor(o.Config).Bytes
	}
	o.Name, o.Model, o.Tools = "companion", models.Get, BuiltinTools(o.Sandbox)
	return models.Close
}

// Serve returns a function that serves ACP in process as `companion acp`
// with flags f would in an environment getenv: settings, flags, the real
// model source and tools; it logs as text to its log writer. Tests run
// it through acptest.StartServe.
func Serve(getenv func(string) string, f Flags, version string) func(ctx context.Context, in io.Reader, out io.Writer, log io.Writer) error {
	return func(ctx context.Context, in io.Reader, out io.Writer, logw io.Writer) error {
		cfg, err := LoadConfig(getenv, f)
		if err != nil {
			return err
		}
		lv, err := ParseLogLevel(cfg.LogLevel)
		if err != nil {
			return err
		}
		red := NewRedactor(cfg)
		log := slog.New(slog.NewTextHandler(red.Writer(logw), &slog.HandlerOptions{Level: lv}))
		reload := func() (config.Config, error) { return LoadConfig(getenv, f) }
		return ServeACP(ctx, ACP{Version: version, Config: cfg, Reload: reload, Getenv: getenv, In: in, Out: out, Log: log,
			Redactor: red})
	}
}

// ParseLogLevel reads a log level name (debug, info, warn, error); ""
// is info.
func ParseLogLevel(level string) (slog.Level, error) {
	var lv slog.Level
	if level == "" {
		return lv, nil
	}
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return lv, fmt.Errorf("log level %q: %w", level, err)
	}
	return lv, nil
}

// RunHeadless runs `companion run` as o says with the real model source
// and the built-in tools, and returns the exit code.
func RunHeadless(ctx context.Context, o headless.Options) int {
	defer realHost(&o.Options)()
	return headless.Run(ctx, o)
}
