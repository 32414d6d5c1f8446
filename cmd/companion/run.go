package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"companion/headless"
	"companion/internal/cli"
)

// runFlags are the flags of `companion run` besides the model flags it
// shares with `companion acp`.
type runFlags struct {
	acp            cli.Flags
	prompt         string
	outputFormat   string
	inputFormat    string
	approvalMode   string
	resume         string
	allowedTools   multiFlag
	maxTurns       int
	partial        bool
	controlTimeout time.Duration
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.acp.Register(fs)
	fs.StringVar(&f.prompt, "p", "", "the `prompt` (stdin, when piped, is appended)")
	fs.StringVar(&f.prompt, "prompt", "", "the `prompt` (same as -p)")
	fs.StringVar(&f.outputFormat, "output-format", "text", "text, json or stream-json")
	fs.StringVar(&f.inputFormat, "input-format", "text", "text, or stream-json for an SDK session (see headless/PROTOCOL.md)")
	fs.StringVar(&f.approvalMode, "approval-mode", "", "default, plan, auto-edit or yolo")
	fs.StringVar(&f.resume, "resume", "", "continue the stored `session` with this id")
	fs.Var(&f.allowedTools, "allowed-tools", "comma-separated allow `rules`, e.g. read_file,run_shell_command(git status); repeatable")
	fs.IntVar(&f.maxTurns, "max-turns", 0, "at most `n` model requests per prompt")
	fs.BoolVar(&f.partial, "include-partial-messages", false, "stream-json: also emit stream_event lines while the model streams")
	fs.DurationVar(&f.controlTimeout, "control-timeout", headless.DefaultControlTimeout, "how long to wait for the SDK's answer to a control request")
}

// rules splits the --allowed-tools values at top-level commas (a pattern
// in parentheses may hold commas).
func (f *runFlags) rules() []string {
	var out []string
	for _, v := range f.allowedTools {
		depth, start := 0, 0
		for i, r := range v {
			switch {
			case r == '(':
				depth++
			case r == ')' && depth > 0:
				depth--
			case r == ',' && depth == 0:
				out = appendRule(out, v[start:i])
				start = i + 1
			}
		}
		out = appendRule(out, v[start:])
	}
	return out
}

func appendRule(rules []string, r string) []string {
	if r = strings.TrimSpace(r); r != "" {
		rules = append(rules, r)
	}
	return rules
}

// runHeadless runs `companion run`.
func runHeadless(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("companion run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return headless.ExitOK
		}
		return headless.ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "companion run: unexpected argument %q (give the prompt with -p or on stdin)\n", fs.Arg(0))
		return headless.ExitUsage
	}
	cfg, err := cli.LoadConfig(getenv, f.acp)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return headless.ExitError
	}
	if cfg.LogLevel == "" {
		cfg.LogLevel = "warn" // stderr is the progress display
	}
	red := cli.NewRedactor(cfg)
	log, closeLog, err := newLogger(cfg.LogFile, cfg.LogLevel, stderr, red.Writer)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return headless.ExitUsage
	}
	defer closeLog()
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return headless.ExitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.RunHeadless(ctx, headless.Options{
		Prompt: f.prompt, Stdin: stdin, StdinPiped: piped(stdin), Stdout: stdout, Stderr: stderr,
		OutputFormat: f.outputFormat, InputFormat: f.inputFormat, ApprovalMode: f.approvalMode,
		Resume: f.resume, AllowedTools: f.rules(), MaxTurns: f.maxTurns, IncludePartial: f.partial,
		ControlTimeout: f.controlTimeout, Cwd: cwd, Config: cfg,
		Version: version, Log: log, Redact: red.Bytes,
	})
}

// piped reports whether r is a pipe or a file rather than a terminal.
func piped(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return r != nil
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice == 0
}
