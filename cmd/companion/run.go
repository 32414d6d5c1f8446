package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"companion/config"
	"companion/headless"
	"companion/host"
	"companion/internal/cli"
)

// runFlags are the flags of `companion run` (and of `companion` with
// no subcommand) besides the model flags it shares with `companion acp`.
type runFlags struct {
	acp            cli.Flags
	prompt         string
	outputFormat   string
	inputFormat    string
	approvalMode   string
	resume         string
	yolo           bool
	continueLatest bool
	includeDirs    multiFlag
	allowedTools   multiFlag
	maxTurns       int
	partial        bool
	controlTimeout time.Duration
	// version prints the version (-v, --version); acpMode serves ACP as
	// `companion acp` does (--acp, --experimental-acp: Gemini CLI's flags,
	// so an editor's configuration can swap the binary).
	version, acpMode bool
	// listSessions prints this folder's stored sessions, numbered;
	// deleteSession deletes one, by number or id (Gemini CLI's flags).
	listSessions  bool
	deleteSession string
}

func (f *runFlags) register(fs *flag.FlagSet) {
	f.acp.Register(fs)
	fs.StringVar(&f.prompt, "prompt", "", "run this `prompt` without an editor and exit (stdin, when piped, is appended)")
	fs.StringVar(&f.prompt, "p", "", "the `prompt` (same as --prompt)")
	fs.StringVar(&f.outputFormat, "output-format", "text", "the output `format`: text, json or stream-json")
	fs.StringVar(&f.outputFormat, "o", "text", "the output `format` (same as --output-format)")
	fs.StringVar(&f.inputFormat, "input-format", "text", "the input `format`: text, or stream-json for an SDK session (see headless/PROTOCOL.md)")
	fs.StringVar(&f.approvalMode, "approval-mode", "", "the permission `mode`: default, plan, auto-edit or yolo")
	fs.BoolVar(&f.yolo, "yolo", false, "allow every tool call without asking (same as --approval-mode yolo)")
	fs.BoolVar(&f.yolo, "y", false, "same as --yolo")
	fs.StringVar(&f.resume, "resume", "", "continue a stored `session`: its number in --list-sessions, its id, or latest (the one of this folder used last; -r alone means latest)")
	fs.StringVar(&f.resume, "r", "", "same as --resume")
	fs.BoolVar(&f.continueLatest, "continue", false, "continue the session of this folder used last (same as --resume latest)")
	fs.BoolVar(&f.continueLatest, "c", false, "same as --continue")
	fs.Var(&f.includeDirs, "include-directories", "comma-separated `folders` the session may work in besides this one; repeatable")
	fs.Var(&f.allowedTools, "allowed-tools", "comma-separated allow `rules`, e.g. read_file,run_shell_command(git status); repeatable")
	fs.IntVar(&f.maxTurns, "max-turns", 0, "at most `n` model requests per prompt")
	fs.BoolVar(&f.partial, "include-partial-messages", false, "stream-json: also emit stream_event lines while the model streams")
	fs.DurationVar(&f.controlTimeout, "control-timeout", headless.DefaultControlTimeout, "how long to wait for the SDK's answer to a control request")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.BoolVar(&f.version, "v", false, "same as --version")
	fs.BoolVar(&f.acpMode, "acp", false, "speak the Agent Client Protocol on stdin/stdout (same as companion acp)")
	fs.BoolVar(&f.acpMode, "experimental-acp", false, "same as --acp (Gemini CLI's name)")
	fs.BoolVar(&f.listSessions, "list-sessions", false, "list this folder's stored sessions, numbered oldest first, and exit")
	fs.StringVar(&f.deleteSession, "delete-session", "", "delete a stored `session` of this folder (its number in --list-sessions, or its id) and exit")
}

// parseRunFlags parses args as name's flags. The value of -r/--resume is
// optional: alone (at the end, or before another flag) it means latest.
// -h prints help (help, or the flags when nil) on stderr and returns an
// error wrapping flag.ErrHelp; a bad flag prints the error and a hint.
func parseRunFlags(name string, args []string, stderr io.Writer, help func(io.Writer)) (runFlags, []string, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f runFlags
	f.register(fs)
	fs.Usage = func() {}
	err := fs.Parse(optionalResume(fs, args))
	switch {
	case errors.Is(err, flag.ErrHelp) && help != nil:
		help(stderr)
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(stderr, "Flags of %s:\n", name)
		cli.PrintFlags(stderr, fs)
	case err != nil:
		fmt.Fprintf(stderr, "Run '%s --help' for the flags.\n", name)
	}
	if err != nil {
		return f, nil, err
	}
	if err := f.settle(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return f, nil, err
	}
	return f, fs.Args(), nil
}

// settle folds the shorthand flags into the ones they stand for and
// refuses contradicting ones.
func (f *runFlags) settle() error {
	if f.yolo {
		if f.approvalMode != "" && f.approvalMode != "yolo" {
			return fmt.Errorf("--yolo and --approval-mode %s contradict each other", f.approvalMode)
		}
		f.approvalMode = "yolo"
	}
	if f.continueLatest {
		if f.resume != "" && f.resume != headless.ResumeLatest {
			return fmt.Errorf("--continue and --resume %s contradict each other", f.resume)
		}
		f.resume = headless.ResumeLatest
	}
	return nil
}

// optionalResume gives a -r or --resume with no value (last argument, or
// followed by another flag) the value latest. It skips the values of
// other flags, so `-p -r` keeps "-r" as the prompt.
func optionalResume(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args)+1)
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return append(out, args[i+1:]...) // the flags end here
		}
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		fl := fs.Lookup(name)
		switch {
		case fl == nil || isBool(fl):
		case name == "r" || name == "resume":
			if i+1 == len(args) || strings.HasPrefix(args[i+1], "-") {
				out = append(out, headless.ResumeLatest)
			}
		case i+1 < len(args):
			i++
			out = append(out, args[i])
		}
	}
	return out
}

// isBool reports whether fl takes no value.
func isBool(fl *flag.Flag) bool {
	b, ok := fl.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// dirs splits the --include-directories values at commas and makes them
// absolute against cwd; each must be an existing folder.
func (f *runFlags) dirs(cwd string) ([]string, error) {
	var out []string
	for _, v := range f.includeDirs {
		for _, d := range strings.Split(v, ",") {
			if d = strings.TrimSpace(d); d == "" {
				continue
			}
			if !filepath.IsAbs(d) {
				d = filepath.Join(cwd, d)
			}
			if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
				return nil, fmt.Errorf("--include-directories: %s is not a folder", d)
			}
			out = append(out, filepath.Clean(d))
		}
	}
	return out, nil
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
	f, rest, err := parseRunFlags("companion run", args, stderr, nil)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return headless.ExitOK
		}
		return headless.ExitUsage
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "companion run: unexpected argument %q (give the prompt with -p or on stdin)\n", rest[0])
		return headless.ExitUsage
	}
	if code, done := sessionCommand("companion run", f, "", stdout, stderr, getenv); done {
		return code
	}
	return headlessRun("companion run", f, stdin, stdout, stderr, getenv)
}

// headlessRun runs one headless session as f says; name is the command
// as typed, for its messages.
//
// Started as `companion` (Gemini CLI's form) with text input, the run is
// Gemini CLI's: its stream-json events and exit codes (42 bad input, 53
// the turn limit); `companion run`, stream-json input and
// --include-partial-messages keep the SDK's shape (headless/PROTOCOL.md).
func headlessRun(name string, f runFlags, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	gemini := name == "companion" && f.inputFormat != "stream-json" && !f.partial
	env, code := setUp(f, stderr, getenv)
	if env == nil {
		if gemini && code == headless.ExitUsage {
			code = headless.ExitGeminiInput
		}
		return code
	}
	defer env.close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return cli.RunHeadless(ctx, headless.Options{
		Name: name, GeminiCLI: gemini, Prompt: f.prompt, Stdin: stdin, StdinPiped: piped(stdin), Stdout: stdout, Stderr: stderr,
		OutputFormat: f.outputFormat, InputFormat: f.inputFormat, ApprovalMode: f.approvalMode,
		Resume: f.resume, IncludeDirs: env.dirs, AllowedTools: f.rules(), MaxTurns: f.maxTurns, IncludePartial: f.partial,
		ControlTimeout: f.controlTimeout, Cwd: env.cwd, Options: env.host(),
	})
}

// runEnv is what a run or a chat needs from settings and the process.
type runEnv struct {
	cfg config.Config
	// redact keeps the configured keys out of session files.
	redact func([]byte) []byte
	log    *slog.Logger
	close  func()
	cwd    string
	dirs   []string
	// getenv reads the environment the settings came from.
	getenv func(string) string
}

// host is what a run's or a chat's host is built from, before
// cli.RunHeadless or cli.RunChat adds the model source and the tools.
func (e *runEnv) host() host.Options {
	return host.Options{Config: e.cfg, Version: version, Log: e.log, Redact: e.redact, Getenv: e.getenv}
}

// setUp loads the settings, opens the log (warn level by default: stderr
// is the user's display) and reads the folders. On failure it reports on
// stderr and returns nil and the exit code.
func setUp(f runFlags, stderr io.Writer, getenv func(string) string) (*runEnv, int) {
	cfg, err := cli.LoadConfig(getenv, f.acp)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return nil, headless.ExitError
	}
	if cfg.LogLevel == "" {
		cfg.LogLevel = "warn"
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return nil, headless.ExitError
	}
	dirs, err := f.dirs(cwd)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return nil, headless.ExitUsage
	}
	red := cli.NewRedactor(cfg)
	log, closeLog, err := newLogger(cfg.LogFile, cfg.LogLevel, stderr, red.Writer)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return nil, headless.ExitUsage
	}
	return &runEnv{cfg: cfg, redact: red.Bytes, log: log, close: closeLog, cwd: cwd, dirs: dirs, getenv: getenv}, 0
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
