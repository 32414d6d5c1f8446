package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"companion/tools/procgroup"
	"companion/tools/shell"
)

// Output limits: what a hook prints beyond them is dropped.
const (
	maxStdout = 1 << 20
	maxStderr = 64 << 10
	// maxShownStderr caps the stderr quoted in errors and reasons.
	maxShownStderr = 2000
	// waitDelay is how long output pipes are read after the hook's shell
	// exited or was killed, in case something it started still holds them.
	waitDelay = time.Second
)

// HookError is a hook that gave no answer: it could not start, ran past
// its timeout, exited with a status other than 0 or 2, or printed an
// invalid answer.
type HookError struct {
	// Event is the event the hook ran for.
	Event string
	// Hook is the hook's name, or its command.
	Hook string
	// Err wraps ErrStart, ErrTimeout, ErrExit or ErrBadOutput.
	Err error
	// Stderr is what the hook printed on stderr, trimmed and capped.
	Stderr string
}

// Error says which hook failed and how, in one line plus its stderr.
func (e *HookError) Error() string {
	msg := fmt.Sprintf("%s hook %q: %v", e.Event, e.Hook, e.Err)
	if e.Stderr != "" {
		msg += ": " + e.Stderr
	}
	return msg
}

// Unwrap returns the cause, for errors.Is against the sentinels.
func (e *HookError) Unwrap() error { return e.Err }

// runHook runs one hook with stdin and reads its answer. A failed hook
// comes back as a *HookError.
func (r *Runner) runHook(ctx context.Context, event string, h Hook, dir string, stdin []byte) (answer, error) {
	start := time.Now()
	if h.Call != nil {
		return r.call(ctx, event, h, stdin)
	}
	stdout, stderr, code, err := r.exec(ctx, h, dir, stdin)
	shown := shorten(strings.TrimSpace(string(stderr)))
	log := r.opts.Log.With("event", event, "hook", h.label(), "took", time.Since(start))
	fail := func(err error) (answer, error) {
		log.Warn("hook failed", "err", err)
		return answer{}, &HookError{Event: event, Hook: h.label(), Err: err, Stderr: shown}
	}
	switch {
	case err != nil:
		return fail(err)
	case code == 2:
		log.Debug("hook blocked", "exit", code)
		if shown == "" {
			shown = "blocked by hook " + h.label()
		}
		return answer{decision: Block, reason: shown}, nil
	case code != 0:
		return fail(fmt.Errorf("%w with exit status %d", ErrExit, code))
	}
	a, err := parseAnswer(stdout)
	if err != nil {
		return fail(err)
	}
	log.Debug("hook answered", "decision", a.decision)
	return a, nil
}

// call runs a client-side hook within its timeout and reads its answer.
func (r *Runner) call(ctx context.Context, event string, h Hook, stdin []byte) (answer, error) {
	hctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	out, err := h.Call(hctx, stdin)
	if err == nil {
		var a answer
		if a, err = parseAnswer(out); err == nil {
			return a, nil
		}
	}
	if hctx.Err() != nil && ctx.Err() == nil {
		err = fmt.Errorf("%w after %s", ErrTimeout, h.Timeout)
	}
	r.opts.Log.Warn("hook failed", "event", event, "hook", h.label(), "err", err)
	return answer{}, &HookError{Event: event, Hook: h.label(), Err: err}
}

// exec runs the hook's command in its own process group with stdin and
// returns what it printed and its exit status. The whole group is killed
// when the timeout passes or ctx ends.
func (r *Runner) exec(ctx context.Context, h Hook, dir string, stdin []byte) ([]byte, []byte, int, error) {
	hctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	argv := shell.Argv(r.opts.Shell, h.Command)
	if r.opts.Wrap != nil {
		var err error
		if argv, err = r.opts.Wrap(argv); err != nil {
			return nil, nil, 0, fmt.Errorf("%w: %w", ErrStart, err)
		}
	}
	cmd := exec.CommandContext(hctx, argv[0], argv[1:]...)
	shell.SetCommandLine(cmd, argv)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "COMPANION_PROJECT_DIR="+dir, "GEMINI_PROJECT_DIR="+dir,
		"CLAUDE_PROJECT_DIR="+dir)
	cmd.Env = append(cmd.Env, r.opts.Env...)
	cmd.Stdin = bytes.NewReader(stdin)
	stdout, stderr := &capped{max: maxStdout}, &capped{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process.Pid) }
	cmd.WaitDelay = waitDelay
	if err := procgroup.Start(cmd); err != nil {
		return nil, nil, 0, fmt.Errorf("%w: %w", ErrStart, err)
	}
	err := cmd.Wait()
	switch {
	case ctx.Err() != nil:
		return nil, nil, 0, ctx.Err()
	case hctx.Err() != nil:
		return nil, stderr.Bytes(), 0, fmt.Errorf("%w after %s", ErrTimeout, h.Timeout)
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) && !errors.Is(err, exec.ErrWaitDelay) {
		return nil, stderr.Bytes(), 0, fmt.Errorf("%w: %w", ErrExit, err)
	}
	code := cmd.ProcessState.ExitCode()
	if code < 0 {
		return nil, stderr.Bytes(), 0, fmt.Errorf("%w: %s", ErrExit, cmd.ProcessState)
	}
	return stdout.Bytes(), stderr.Bytes(), code, nil
}

// shorten caps s for messages.
func shorten(s string) string {
	if len(s) <= maxShownStderr {
		return s
	}
	return strings.ToValidUTF8(s[:maxShownStderr], "") + "…"
}

// capped is a buffer that keeps the first max bytes written to it and
// drops the rest without failing the writer.
type capped struct {
	buf bytes.Buffer
	max int
}

// Write keeps what fits and reports the whole of p as written.
func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// Bytes returns what was kept.
func (c *capped) Bytes() []byte { return c.buf.Bytes() }
