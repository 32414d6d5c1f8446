package builtin

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"companion/tools"

	"companion/tools/shell"
)

//go:embed descriptions/run_shell_command.md
var runShellDescription string

// maxTitleRunes is where a command is cut in a call's title.
const maxTitleRunes = 100

// runShellParams are run_shell_command's parameters, as Gemini CLI names
// them.
type runShellParams struct {
	Command      string `json:"command" required:"true" desc:"The exact bash command line to run, as with bash -c."`
	Description  string `json:"description" desc:"A short description of what the command does and why, shown to the user when they are asked to approve it."`
	Directory    string `json:"directory" desc:"The directory to run in: relative to the session root, or absolute inside the workspace roots. Defaults to the session root."`
	IsBackground bool   `json:"is_background" desc:"Start the command in the background and return at once with its id, for servers and watchers. Do not add & yourself."`
	// OutsideSandbox asks to run the command without the sandbox; the
	// user is asked every time (see AllowOutsideSandbox).
	OutsideSandbox bool `json:"outside_sandbox" desc:"Run the command outside the sandbox. Set it only to run again a command whose result said the sandbox stopped it; the user is asked every time."`
}

// runShellTool runs shell commands, locally or in the editor's terminals.
type runShellTool struct {
	opts ShellOptions
	// program is the shell that runs commands here (shell.Local).
	program string
}

func newRunShell(o ShellOptions) tools.Tool {
	desc := strings.NewReplacer(
		"{inactivity}", o.InactivityTimeout.String(),
		"{head}", tools.FormatSize(int64(o.HeadBytes)),
		"{tail}", tools.FormatSize(int64(o.TailBytes)),
	).Replace(runShellDescription)
	t := &runShellTool{opts: o, program: shell.Local(o.Shell)}
	return tools.Define(tools.Def[runShellParams]{
		Name: "run_shell_command", Kind: tools.KindExecute,
		Description: desc,
		Prepare:     t.prepare,
	})
}

func (t *runShellTool) prepare(env *tools.Env, p runShellParams) (tools.Invocation, error) {
	if strings.TrimSpace(p.Command) == "" {
		return nil, tools.ArgErrorf("parameter %q must not be empty", "command")
	}
	dir := env.Roots.Primary()
	if strings.TrimSpace(p.Directory) != "" {
		var err error
		if dir, err = env.Roots.Resolve(p.Directory); err != nil {
			return nil, err
		}
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return nil, tools.ArgErrorf("directory %q does not exist or is not a directory", p.Directory)
		}
	}
	return &runShellCall{env: env, opts: t.opts, p: p, dir: dir,
		program: t.program, analysis: shell.AnalyzeFor(t.program, p.Command)}, nil
}

// runShellCall is one validated run_shell_command call.
type runShellCall struct {
	env      *tools.Env
	opts     ShellOptions
	p        runShellParams
	dir      string
	program  string
	analysis shell.Analysis
	// outsideAllowed is set when the user allowed this call to run
	// outside the sandbox.
	outsideAllowed bool
}

// ShellRaw is run_shell_command's structured output for front ends.
type ShellRaw struct {
	Command  string `json:"command"`
	Dir      string `json:"dir"`
	ExitCode *int   `json:"exitCode,omitempty"`
	Signal   string `json:"signal,omitempty"`
	// TimedOut is set when the command was killed for printing nothing
	// for too long, or for running too long.
	TimedOut bool `json:"timedOut,omitempty"`
	// Bytes is the size of the whole output.
	Bytes int64 `json:"bytes"`
	// Truncated means the result holds only the head and tail of the
	// output; OutputFile then holds all of it.
	Truncated  bool   `json:"truncated,omitempty"`
	OutputFile string `json:"outputFile,omitempty"`
	// BackgroundID and PID identify a command started in the background.
	BackgroundID string `json:"backgroundId,omitempty"`
	PID          int    `json:"pid,omitempty"`
	TerminalID   string `json:"terminalId,omitempty"`
}

func (c *runShellCall) Title() string { return shortCommand(c.p.Command) }

func (c *runShellCall) Locations() []tools.Location { return nil }

func (c *runShellCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	title := strings.TrimSpace(c.p.Description)
	if title == "" {
		title = c.Title()
	}
	conf := &tools.Confirmation{Type: tools.ConfirmExec, Title: title, Command: c.p.Command, Dir: c.dir,
		RootCommands: c.analysis.RootCommands, Parsed: c.analysis.Parsed, Redirects: c.analysis.Redirects}
	for _, cmd := range c.analysis.Commands {
		conf.Commands = append(conf.Commands, tools.ShellCommand(cmd))
	}
	return conf, nil
}

func (c *runShellCall) Execute(ctx context.Context, out tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if out == nil {
		out = discardOutput{}
	}
	if c.p.OutsideSandbox && c.opts.Sandbox.Active() && !c.outsideAllowed {
		return tools.ErrorResult("The command was not run: running outside the sandbox needs the user's approval, and it was not given."), nil
	}
	// A sandbox wraps only commands run here: an editor terminal would
	// run them outside it.
	terminals := c.env.Terminals != nil && !c.opts.Sandbox.Active()
	switch {
	case c.p.IsBackground && c.env.Background == nil:
		return tools.ErrorResult("Background commands are not available in this session; run the command without is_background."), nil
	case c.p.IsBackground && terminals:
		return c.startTerminalBackground(ctx, out)
	case c.p.IsBackground:
		return c.startLocalBackground()
	case terminals:
		return c.runTerminal(ctx, out)
	}
	return c.runLocal(ctx, out)
}

// discardOutput is the Output of a caller that passed none.
type discardOutput struct{}

func (discardOutput) Write(string) {}

// shortCommand is the first line of a command, cut to maxTitleRunes.
func shortCommand(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	first, _, multi := strings.Cut(cmd, "\n")
	if utf8.RuneCountInString(first) > maxTitleRunes {
		first, multi = string([]rune(first)[:maxTitleRunes]), true
	}
	if multi {
		first += " …"
	}
	return first
}

// ending says how a command ended, for the model and the user.
type ending struct {
	status tools.ExitStatus
	// timedOut names the limit that killed the command, if one did.
	timedOut string
	// notes are extra sentences (leftover processes, an editor that kept
	// only the tail).
	notes []string
}

// result builds the answer of a finished foreground command from its
// capped output. As in Gemini CLI, the exit code is part of the answer: a
// command that fails is still a tool call that worked. IsError is set only
// when a timeout killed the command (a command that cannot start is an
// error result too, made where it fails).
func (c *runShellCall) result(e ending, cp captured) *tools.Result {
	var b strings.Builder
	if cp.text == "" {
		b.WriteString("(no output)\n")
	} else {
		b.WriteString(cp.text)
		if !strings.HasSuffix(cp.text, "\n") {
			b.WriteByte('\n')
		}
	}
	b.WriteString("---\n")
	switch {
	case e.timedOut != "":
		fmt.Fprintf(&b, "The command was killed: %s.\n", e.timedOut)
	case e.status.Signal != "":
		fmt.Fprintf(&b, "The command was killed by signal %s.\n", e.status.Signal)
	case e.status.Code != nil:
		fmt.Fprintf(&b, "Exit code: %d\n", *e.status.Code)
	}
	if cp.truncated {
		fmt.Fprintf(&b, "The output (%s) was cut to its first %s and last %s. All of it is saved in %s; read parts of it with read_file (offset and limit) or search it with grep.\n",
			tools.FormatSize(cp.total), tools.FormatSize(int64(c.opts.HeadBytes)), tools.FormatSize(int64(c.opts.TailBytes)), cp.file)
	}
	for _, n := range e.notes {
		b.WriteString(n + "\n")
	}
	raw := ShellRaw{Command: c.p.Command, Dir: c.dir, ExitCode: e.status.Code, Signal: e.status.Signal,
		TimedOut: e.timedOut != "", Bytes: cp.total, Truncated: cp.truncated, OutputFile: cp.file}
	return &tools.Result{Text: b.String(), IsError: e.timedOut != "", Raw: raw}
}
