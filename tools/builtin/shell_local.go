package builtin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"companion/secrets"
	"companion/tools"
	"companion/tools/procgroup"
	"companion/tools/shell"
)

// groupPollInterval is how often a stopping process group is checked for
// processes left.
const groupPollInterval = 20 * time.Millisecond

// localProcess is a command started on this machine, in a process group of
// its own, writing all its output (stdout and stderr merged) to a log file.
type localProcess struct {
	cmd  *exec.Cmd
	pgid int
	log  string
	// done is closed once the shell has exited and been reaped.
	done chan struct{}
}

// startLocal starts command under the shell in dir. Standard input is
// /dev/null. A start failure the model can act on (no such directory)
// comes back as a Result.
func (c *runShellCall) startLocal() (*localProcess, *tools.Result, error) {
	logf, err := newLogFile(c.env)
	if err != nil {
		return nil, nil, err
	}
	argv, err := c.sandboxFor().Wrap(c.env.Roots.All(), shell.Argv(c.program, c.p.Command))
	if err != nil {
		_ = logf.Close()
		_ = os.Remove(logf.Name())
		return nil, tools.ErrorResult(fmt.Sprintf("The command was not run: the %s sandbox is on, but %v. "+
			"Install bubblewrap or allow unprivileged user namespaces, or set the sandbox to off.", c.opts.Sandbox.Mode, err)), nil
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	shell.SetCommandLine(cmd, argv)
	cmd.Dir = c.dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.Env = append(absolutePath(secrets.ShellEnv(os.Environ(), c.opts.Env)), "COMPANION=1")
	err = procgroup.Start(cmd)
	_ = logf.Close() // the child holds its own descriptors
	if err != nil {
		_ = os.Remove(logf.Name())
		return nil, tools.ErrorResult(fmt.Sprintf("Could not start the command: %v", err)), nil
	}
	p := &localProcess{cmd: cmd, pgid: cmd.Process.Pid, log: logf.Name(), done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		close(p.done)
	}()
	return p, nil, nil
}

// runLocal runs a foreground command on this machine and waits for it,
// streaming its output.
func (c *runShellCall) runLocal(ctx context.Context, out tools.Output) (*tools.Result, error) {
	p, res, err := c.startLocal()
	if res != nil || err != nil {
		return res, err
	}
	e, err := c.watch(ctx, p, out)
	if err != nil {
		_ = os.Remove(p.log)
		return nil, err // cancelled: the whole group is gone
	}
	e.status = exitStatus(p.cmd.ProcessState)
	adopted := false
	if e.timedOut == "" && procgroup.Alive(p.pgid) {
		var note string
		adopted, note = c.adoptLeftovers(p)
		e.notes = append(e.notes, note)
	}
	cp, err := captureFile(p.log, c.opts.HeadBytes, c.opts.TailBytes)
	if err != nil {
		return nil, err
	}
	if note := c.sandboxNote(e.status.Code != nil && *e.status.Code != 0, cp.text); note != "" {
		e.notes = append(e.notes, note)
	}
	if !cp.truncated && !adopted {
		_ = os.Remove(p.log)
	}
	return c.result(e, cp), nil
}

// watch waits for a local command while streaming its output. It kills
// the command's process group when ctx is cancelled (returning ctx's
// error), when the command prints nothing for the inactivity timeout or
// when it runs past the overall timeout.
func (c *runShellCall) watch(ctx context.Context, p *localProcess, out tools.Output) (ending, error) {
	st, err := newStreamer(p.log, out, int64(c.opts.StreamBytes))
	if err != nil {
		c.stop(p)
		return ending{}, err
	}
	defer st.close()
	tick := time.NewTicker(c.opts.FlushInterval)
	defer tick.Stop()
	var deadline <-chan time.Time
	if c.opts.Timeout > 0 {
		t := time.NewTimer(c.opts.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	last := time.Now()
	for {
		select {
		case <-p.done:
			st.poll()
			return ending{}, nil
		case <-ctx.Done():
			c.stop(p)
			return ending{}, ctx.Err()
		case <-deadline:
			c.stop(p)
			st.poll()
			return ending{timedOut: fmt.Sprintf("it ran longer than %s", c.opts.Timeout)}, nil
		case now := <-tick.C:
			if st.poll() {
				last = now
			} else if now.Sub(last) >= c.opts.InactivityTimeout {
				c.stop(p)
				return ending{timedOut: fmt.Sprintf("it printed nothing for %s", c.opts.InactivityTimeout)}, nil
			}
		}
	}
}

// stop ends a local command's whole process group: SIGTERM, then SIGKILL
// for whatever is left after the grace period. It returns once the shell
// has been reaped.
func (c *runShellCall) stop(p *localProcess) {
	stopGroup(p.pgid, c.opts.KillGrace, p.done)
}

// stopGroup sends SIGTERM to a process group, waits up to grace for it to
// empty, then sends SIGKILL. done, when not nil, is closed when the group's
// leader is reaped; stopGroup waits for it.
func stopGroup(pgid int, grace time.Duration, done <-chan struct{}) {
	procgroup.Terminate(pgid)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	expired := false
	if done != nil {
		select {
		case <-done:
		case <-timer.C:
			expired = true
		}
	}
	tick := time.NewTicker(groupPollInterval)
	defer tick.Stop()
	for !expired && procgroup.Alive(pgid) {
		select {
		case <-timer.C:
			expired = true
		case <-tick.C:
		}
	}
	procgroup.Kill(pgid)
	if done != nil {
		<-done
	}
}

// adoptLeftovers hands processes a finished command left running (cmd &)
// to the session's background registry, so they can be listed, read and
// killed, and die with the session. It returns whether they were adopted
// and a note for the model.
func (c *runShellCall) adoptLeftovers(p *localProcess) (bool, string) {
	if c.env.Background == nil {
		return false, fmt.Sprintf("The command left processes running in the background (process group %d).", p.pgid)
	}
	id, err := c.env.Background.Add(&bgJob{command: c.p.Command, dir: c.dir, started: time.Now(),
		pgid: p.pgid, log: p.log, grace: c.opts.KillGrace})
	if err != nil {
		stopGroup(p.pgid, c.opts.KillGrace, nil)
		return false, "The command left processes running in the background; they were stopped because the session is closing."
	}
	return true, fmt.Sprintf("The command left processes running in the background; they are background process %s, writing to %s. Manage them with list_background_processes, read_background_output and kill_background_process.", id, p.log)
}

// startLocalBackground starts a background command on this machine and
// returns at once.
func (c *runShellCall) startLocalBackground() (*tools.Result, error) {
	p, res, err := c.startLocal()
	if res != nil || err != nil {
		return res, err
	}
	job := &bgJob{command: c.p.Command, dir: c.dir, started: time.Now(), pgid: p.pgid, log: p.log,
		done: p.done, cmd: p.cmd, grace: c.opts.KillGrace}
	id, err := c.env.Background.Add(job)
	if err != nil {
		stopGroup(p.pgid, c.opts.KillGrace, p.done)
		return tools.ErrorResult("The session is closing; no background command can start."), nil
	}
	text := fmt.Sprintf("Started background process %s (pid %d). Its output goes to %s. "+
		"Use read_background_output to see it, list_background_processes to check on it and kill_background_process to stop it.",
		id, p.pgid, p.log)
	return &tools.Result{Text: text, Raw: ShellRaw{Command: c.p.Command, Dir: c.dir, BackgroundID: id, PID: p.pgid,
		OutputFile: p.log}}, nil
}

// absolutePath returns env with the relative entries of its PATH removed
// (see absoluteDirs).
func absolutePath(env []string) []string {
	for i, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if !strings.EqualFold(name, "PATH") {
			continue
		}
		if dirs, changed := absoluteDirs(value); changed {
			out := slices.Clone(env)
			out[i] = name + "=" + dirs
			return out
		}
	}
	return env
}

// absoluteDirs is the search path list without its relative entries ("",
// ".", "bin", "node_modules/.bin"), and whether there were any: they name
// folders of the workspace a command runs in, so a repository could put
// its own ls or git there and an allowed program name would run the
// stranger's file.
func absoluteDirs(list string) (string, bool) {
	var keep []string
	for _, dir := range filepath.SplitList(list) {
		if filepath.IsAbs(dir) {
			keep = append(keep, dir)
		}
	}
	out := strings.Join(keep, string(filepath.ListSeparator))
	return out, out != list
}
