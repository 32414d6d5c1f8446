// Command companion is an AI coding agent for editors. `companion acp`
// speaks the Agent Client Protocol on stdio; see README.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"companion/config"
	"companion/internal/cli"
	"companion/tools/procgroup"
	"companion/tools/sandbox"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	// Before anything else, in every role: the environment holds the
	// user's keys, and a non-dumpable process's /proc files are closed to
	// the user's other processes, sandboxed commands among them (see
	// sandbox.NoDump). Each re-executed role (guard, helper) runs this too.
	_ = sandbox.NoDump()
	// The guard of a command's process group runs before anything else:
	// no flags, no settings, no logging (see procgroup.Guard).
	if len(os.Args) > 1 && os.Args[1] == procgroup.GuardCommand {
		os.Exit(procgroup.Guard(os.Args[2:]))
	}
	// So does the Landlock sandbox helper, which confines itself and then
	// becomes the command (see sandbox.RunHelper).
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperCommand {
		os.Exit(sandbox.RunHelper(os.Args[2:]))
	}
	// HOME is filled in from the account when unset, so settings and
	// sessions have their usual places in services and containers too.
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, config.UserEnv(os.Getenv, config.AccountHome)))
}

const usage = `companion is an AI coding agent that lives in your editor.

Usage:
  companion [flags] [PROMPT]   chat in this terminal, starting with PROMPT when given (with -p, or
                           with stdin piped, run one prompt and exit)
  companion acp [flags]    speak the Agent Client Protocol on stdin/stdout (editors start this;
                           --acp and --experimental-acp do the same)
  companion run [flags] -p PROMPT   run one prompt without an editor (scripts, CI, SDKs)
  companion mcp add|remove|list   edit the MCP servers in your settings
  companion settings accept [DIR]   let a project's settings grant powers (allow rules, hooks, MCP servers)
  companion config show [--json]   print the merged settings and where each came from
  companion trust [--revoke] [DIR]   trust a folder (used when folderTrust is enabled)
  companion skills list [--json] [DIR]   list the skills (SKILL.md folders) a session finds
  companion login          sign in: a Gemini API key, Vertex AI or an OpenAI-compatible server
  companion logout         forget the keys companion login stored
  companion version        print the version

Run 'companion acp -h' or 'companion run -h' for a subcommand's flags.
`

// run dispatches a subcommand and returns the process exit code. A first
// argument that is neither a subcommand nor a flag starts the prompt
// (`companion "fix the tests"`, see runTop).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 || isTopFlag(args[0]) {
		return runTop(args, stdin, stdout, stderr, getenv)
	}
	cmd := subcommands()[args[0]]
	if cmd == nil {
		return runTop(args, stdin, stdout, stderr, getenv)
	}
	return cmd(args[1:], stdin, stdout, stderr, getenv)
}

// command runs one subcommand with the arguments after its name and
// returns the exit code.
type command func(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int

// subcommands is the one table of the names run dispatches on: a first
// argument found here is a subcommand, any other word starts a prompt.
func subcommands() map[string]command {
	noStdin := func(f func([]string, io.Writer, io.Writer, func(string) string) int) command {
		return func(args []string, _ io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
			return f(args, stdout, stderr, getenv)
		}
	}
	printVersion := func(_ []string, _ io.Reader, stdout, _ io.Writer, _ func(string) string) int {
		fmt.Fprintf(stdout, "companion %s\n", version)
		return 0
	}
	help := func(_ []string, _ io.Reader, stdout, _ io.Writer, _ func(string) string) int {
		printUsage(stdout)
		return 0
	}
	return map[string]command{
		"acp":      runACP,
		"run":      runHeadless,
		"mcp":      noStdin(runMCP),
		"settings": noStdin(runSettings),
		"config":   noStdin(runConfig),
		"trust":    noStdin(runTrust),
		"skills":   noStdin(runSkills),
		"login":    runLogin,
		"logout":   noStdin(runLogout),
		"version":  printVersion, "--version": printVersion, "-v": printVersion,
		"help": help, "-h": help, "--help": help,
	}
}

// runACP serves ACP until stdin closes or a signal arrives.
func runACP(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	fs := flag.NewFlagSet("companion acp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f cli.Flags
	f.Register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Flags of companion acp:")
		cli.PrintFlags(stderr, fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	return serveACP(f, stdin, stdout, stderr, getenv)
}

// serveACP serves ACP with the model flags f.
func serveACP(f cli.Flags, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	cfg, err := cli.LoadConfig(getenv, f)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	red := cli.NewRedactor(cfg)
	log, closeLog, err := newLogger(cfg.LogFile, cfg.LogLevel, stderr, red.Writer)
	if err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return 1
	}
	defer closeLog()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	reload := func() (config.Config, error) { return cli.LoadConfig(getenv, f) }
	a := cli.ACP{Version: version, Config: cfg, Reload: reload, Getenv: getenv, In: stdin, Out: stdout, Log: log,
		Redactor: red}
	if err := cli.ServeACP(ctx, a); err != nil {
		log.Error("acp server stopped", "err", err)
		return 1
	}
	return 0
}

// newLogger logs to file when set, else to stderr, at level (debug, info,
// warn, error; default info), through wrap (a secrets.Redactor's Writer).
func newLogger(file, level string, stderr io.Writer, wrap func(io.Writer) io.Writer) (*slog.Logger, func(), error) {
	lv, err := cli.ParseLogLevel(level)
	if err != nil {
		return nil, nil, err
	}
	w, closeFn := stderr, func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			return nil, nil, fmt.Errorf("open log file: %w", err)
		}
		w, closeFn = f, func() { f.Close() }
	}
	w = wrap(w)
	logger := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv}))
	routeStdLog(logger.Handler())
	return logger, closeFn, nil
}

// routeStdLog sends what libraries print through the standard log
// package into companion's logger, as debug records: genai logs every
// cancelled stream there ("Error context canceled"), which is no news
// for the user, and the errors that matter come back as errors.
func routeStdLog(h slog.Handler) {
	log.SetFlags(0)
	log.SetOutput(slog.NewLogLogger(h, slog.LevelDebug).Writer())
}
