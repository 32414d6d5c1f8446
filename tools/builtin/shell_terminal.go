package builtin

import (
	"context"
	"fmt"
	"hash/maphash"
	"os"
	"time"

	"companion/tools"

	"companion/tools/shell"
)

// maxTerminalPoll is the longest wait between two looks at a terminal's
// output for the inactivity timeout; each look fetches the output.
const maxTerminalPoll = 10 * time.Second

// terminalRequest is how a command starts in an editor terminal.
func (c *runShellCall) terminalRequest() tools.TerminalRequest {
	argv := []string{"bash", "-c", c.p.Command} // the bash family: bash, as ever
	if !shell.Reads(c.program) {
		argv = shell.Argv(c.program, c.p.Command) // cmd.exe, PowerShell, …
	}
	env := []string{"COMPANION=1"}
	if dirs, changed := absoluteDirs(os.Getenv("PATH")); changed {
		env = append(env, "PATH="+dirs) // as for local commands (absolutePath)
	}
	return tools.TerminalRequest{Command: argv[0], Args: argv[1:], Dir: c.dir,
		Env: env, OutputByteLimit: c.opts.TerminalOutputLimit}
}

// cleanupContext is for calls made while cleaning up: they run even when
// ctx is cancelled, but not forever.
func cleanupContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
}

// runTerminal runs a foreground command in an editor terminal, which the
// user watches; the terminal is always released.
func (c *runShellCall) runTerminal(ctx context.Context, out tools.Output) (*tools.Result, error) {
	term, err := c.env.Terminals.StartTerminal(ctx, c.terminalRequest())
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return tools.ErrorResult(fmt.Sprintf("Could not start the command in the editor's terminal: %v", err)), nil
	}
	defer func() {
		cctx, cancel := cleanupContext(ctx)
		defer cancel()
		if err := term.Release(cctx); err != nil {
			c.env.Log.Warn("release terminal", "terminal", term.ID(), "err", err)
		}
	}()
	if td, ok := out.(tools.TerminalDisplay); ok {
		td.ShowTerminal(term.ID())
	}
	e, err := c.waitTerminal(ctx, term)
	if err != nil {
		return nil, err
	}
	cctx, cancel := cleanupContext(ctx)
	defer cancel()
	o, err := term.Output(cctx)
	if err != nil {
		return nil, fmt.Errorf("read terminal %s: %w", term.ID(), err)
	}
	if e.status.Code == nil && e.status.Signal == "" && o.Exit != nil {
		e.status = *o.Exit
	}
	if o.Truncated {
		e.notes = append(e.notes, fmt.Sprintf("The editor kept only the last %s of the output.", tools.FormatSize(int64(c.opts.TerminalOutputLimit))))
	}
	return c.result(e, c.captureTerminal(o.Output)), nil
}

// captureTerminal caps a terminal's output for the model, saving all of it
// to a log file when it is cut.
func (c *runShellCall) captureTerminal(output string) captured {
	text, cut := capText(output, c.opts.HeadBytes, c.opts.TailBytes)
	cp := captured{text: text, total: int64(len(output)), truncated: cut}
	if !cut {
		return cp
	}
	f, err := newLogFile(c.env)
	if err == nil {
		_, err = f.WriteString(output)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		cp.file = f.Name()
	}
	if err != nil {
		c.env.Log.Warn("save terminal output", "err", err)
		cp.file = "(could not be saved)"
	}
	return cp
}

// waitTerminal waits for a terminal's command, killing it when ctx is
// cancelled (returning ctx's error) or a timeout fires. Inactivity is
// judged by looking at the output now and then.
func (c *runShellCall) waitTerminal(ctx context.Context, term tools.Terminal) (ending, error) {
	wctx, stopWait := context.WithCancel(ctx)
	defer stopWait()
	type waited struct {
		status tools.ExitStatus
		err    error
	}
	done := make(chan waited, 1)
	go func() {
		st, err := term.Wait(wctx)
		done <- waited{st, err}
	}()
	poll := time.NewTicker(min(max(c.opts.InactivityTimeout/10, c.opts.FlushInterval), maxTerminalPoll))
	defer poll.Stop()
	var deadline <-chan time.Time
	if c.opts.Timeout > 0 {
		t := time.NewTimer(c.opts.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	seed := maphash.MakeSeed()
	var lastSum uint64
	last := time.Now()
	for {
		select {
		case w := <-done:
			if ctx.Err() != nil {
				c.killTerminal(ctx, term)
				return ending{}, ctx.Err()
			}
			if w.err != nil {
				return ending{}, fmt.Errorf("wait for terminal %s: %w", term.ID(), w.err)
			}
			return ending{status: w.status}, nil
		case <-ctx.Done():
			c.killTerminal(ctx, term)
			return ending{}, ctx.Err()
		case <-deadline:
			c.killTerminal(ctx, term)
			return ending{timedOut: fmt.Sprintf("it ran longer than %s", c.opts.Timeout)}, nil
		case now := <-poll.C:
			o, err := term.Output(ctx)
			if err != nil {
				continue // a cancelled ctx is handled above; otherwise try again
			}
			if sum := maphash.String(seed, o.Output); sum != lastSum || o.Exit != nil {
				lastSum, last = sum, now
			} else if now.Sub(last) >= c.opts.InactivityTimeout {
				c.killTerminal(ctx, term)
				return ending{timedOut: fmt.Sprintf("it printed nothing for %s", c.opts.InactivityTimeout)}, nil
			}
		}
	}
}

// killTerminal stops a terminal's command, even when ctx is cancelled.
func (c *runShellCall) killTerminal(ctx context.Context, term tools.Terminal) {
	cctx, cancel := cleanupContext(ctx)
	defer cancel()
	if err := term.Kill(cctx); err != nil {
		c.env.Log.Warn("kill terminal", "terminal", term.ID(), "err", err)
	}
}

// startTerminalBackground starts a background command in an editor
// terminal and returns at once; the registry releases the terminal when
// the command is killed or the session ends.
func (c *runShellCall) startTerminalBackground(ctx context.Context, out tools.Output) (*tools.Result, error) {
	term, err := c.env.Terminals.StartTerminal(ctx, c.terminalRequest())
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return tools.ErrorResult(fmt.Sprintf("Could not start the command in the editor's terminal: %v", err)), nil
	}
	job := &bgJob{command: c.p.Command, dir: c.dir, started: time.Now(), term: term}
	id, err := c.env.Background.Add(job)
	if err != nil {
		cctx, cancel := cleanupContext(ctx)
		defer cancel()
		_ = term.Release(cctx)
		return tools.ErrorResult("The session is closing; no background command can start."), nil
	}
	if td, ok := out.(tools.TerminalDisplay); ok {
		td.ShowTerminal(term.ID())
	}
	text := fmt.Sprintf("Started background process %s in the editor's terminal %s. "+
		"Use read_background_output to see its output, list_background_processes to check on it and kill_background_process to stop it.",
		id, term.ID())
	return &tools.Result{Text: text, Raw: ShellRaw{Command: c.p.Command, Dir: c.dir, BackgroundID: id, TerminalID: term.ID()}}, nil
}
