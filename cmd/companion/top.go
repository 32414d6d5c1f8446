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

	"golang.org/x/term"

	"companion/chat"
	"companion/headless"
	"companion/internal/cli"
)

// exitCodes documents companion's exit codes in the usage text.
const exitCodes = `Exit codes:
  0    done (a chat ended, or the prompt finished)
  1    error: the model failed, --max-turns was reached (companion run), no stored session to resume, bad settings
  2    bad usage: an unknown flag or command, contradicting flags; in companion run also no prompt or a bad value
  42   bad input in a prompt run without run (as Gemini CLI): no prompt, a bad value, a missing folder
  53   --max-turns reached in a prompt run without run (as Gemini CLI)
  130  interrupted: SIGINT or SIGTERM during a -p run (its output is flushed first)
`

// isTopFlag reports whether a first argument is one of companion's own
// flags rather than a subcommand (help and version have their cases).
func isTopFlag(a string) bool {
	switch a {
	case "-h", "--help", "-v", "--version":
		return false
	}
	return strings.HasPrefix(a, "-")
}

// printUsage writes the usage: the subcommands, the top-level flags and
// the exit codes.
func printUsage(w io.Writer) {
	fmt.Fprint(w, usage)
	fmt.Fprint(w, "\nFlags of companion (and of companion run):\n")
	fs := flag.NewFlagSet("companion", flag.ContinueOnError)
	new(runFlags).register(fs)
	cli.PrintFlags(w, fs)
	fmt.Fprint(w, "\n"+exitCodes)
}

// runTop runs companion with no subcommand: --version prints it, --acp
// serves ACP; a prompt (-p) or a piped stdin runs headless (words after
// the flags are the prompt, or go before the piped text); a terminal on
// stdin gets a chat, opened with those words as its first message when
// given; anything else gets the usage.
func runTop(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	f, rest, err := parseRunFlags("companion", args, stderr, printUsage)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return headless.ExitOK
		}
		return headless.ExitUsage
	}
	words := strings.Join(rest, " ")
	switch {
	case f.version:
		fmt.Fprintf(stdout, "companion %s\n", version)
		return headless.ExitOK
	case f.acpMode && (f.prompt != "" || words != ""):
		fmt.Fprintln(stderr, "companion: --acp takes no prompt: the editor sends prompts")
		return headless.ExitUsage
	case f.acpMode:
		return serveACP(f.acp, stdin, stdout, stderr, getenv)
	}
	if code, done := sessionCommand("companion", f, words, stdout, stderr, getenv); done {
		return code
	}
	switch {
	case f.prompt != "" && words != "":
		fmt.Fprintf(stderr, "companion: a prompt both with -p and as words (%q)\n", words)
		return headless.ExitUsage
	case f.prompt != "" || f.inputFormat == "stream-json":
		return headlessRun("companion", f, stdin, stdout, stderr, getenv)
	case isTerminal(stdin):
		return chatRun(f, words, stdin, stdout, stderr, getenv)
	case words != "" || piped(stdin):
		f.prompt = words
		return headlessRun("companion", f, stdin, stdout, stderr, getenv)
	}
	fmt.Fprint(stderr, usage)
	return headless.ExitUsage
}

// chatRun starts the interactive chat on the terminal; first, when set,
// is its first prompt.
func chatRun(f runFlags, first string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if err := chatFlags(f); err != nil {
		fmt.Fprintf(stderr, "companion: %v\n", err)
		return headless.ExitUsage
	}
	mode := ""
	if f.approvalMode != "" {
		m, err := headless.AgentMode(f.approvalMode)
		if err != nil {
			fmt.Fprintf(stderr, "companion: --approval-mode: %v\n", err)
			return headless.ExitUsage
		}
		mode = m
	}
	env, code := setUp(f, stderr, getenv)
	if env == nil {
		return code
	}
	defer env.close()
	ints := make(chan os.Signal, 1)
	signal.Notify(ints, os.Interrupt)
	defer signal.Stop(ints)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return cli.RunChat(ctx, chat.Options{In: stdin, Out: stdout, Interrupts: ints, Cwd: env.cwd, IncludeDirs: env.dirs,
		Mode: mode, Resume: f.resume, AllowedTools: f.rules(), MaxTurns: f.maxTurns, Options: env.host(), First: first})
}

// chatFlags refuses the flags that only mean something with a prompt.
func chatFlags(f runFlags) error {
	switch {
	case f.outputFormat != "text":
		return errors.New("--output-format needs a prompt (-p)")
	case f.partial:
		return errors.New("--include-partial-messages needs a prompt (-p) and --output-format stream-json")
	case f.maxTurns < 0:
		return errors.New("--max-turns must be positive")
	}
	return nil
}

// isTerminal reports whether r is a terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
