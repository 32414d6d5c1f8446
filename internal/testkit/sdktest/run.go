package sdktest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"companion/internal/testkit/testio"
)

// RunOptions describe one `companion run` that reads a prompt and exits
// (text, json or stream-json output without stream-json input).
type RunOptions struct {
	Bin  string
	Args []string // after "run"
	Env  []string
	Dir  string
	// Stdin, when not nil, is piped to companion; nil gives it /dev/null.
	Stdin *string
	// InterruptWhen, when set, is a path: companion gets Signal (SIGINT
	// when nil) once it exists (something the run started created it).
	InterruptWhen string
	Signal        os.Signal
}

// RunOutput is what a finished run left behind.
type RunOutput struct {
	Stdout, Stderr string
	Code           int
}

// String shows the whole outcome, for failure messages.
func (o RunOutput) String() string {
	return fmt.Sprintf("exit %d\n--- stdout:\n%s\n--- stderr:\n%s", o.Code, o.Stdout, o.Stderr)
}

// Run runs companion once and waits for it to exit; ctx ending kills it
// and is an error.
func Run(ctx context.Context, o RunOptions) (RunOutput, error) {
	cmd := exec.CommandContext(ctx, o.Bin, append([]string{"run"}, o.Args...)...)
	cmd.Env, cmd.Dir = testio.ChildEnv(o.Env), o.Dir
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if o.Stdin != nil {
		cmd.Stdin = strings.NewReader(*o.Stdin)
	}
	if err := cmd.Start(); err != nil {
		return RunOutput{}, fmt.Errorf("start companion: %w", err)
	}
	exited := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		if o.InterruptWhen != "" {
			sig := o.Signal
			if sig == nil {
				sig = syscall.SIGINT
			}
			interruptWhen(cmd.Process, o.InterruptWhen, sig, exited)
		}
	}()
	err := cmd.Wait()
	close(exited)
	<-watched
	out := RunOutput{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return out, fmt.Errorf("companion run did not finish: %w", ctx.Err())
	case err == nil:
	case errors.As(err, &exit):
		out.Code = exit.ExitCode()
	default:
		return out, fmt.Errorf("companion run: %w", err)
	}
	return out, nil
}

// interruptWhen sends sig once path exists, unless the process exits
// first. It polls: the file is written by a child of companion.
func interruptWhen(p *os.Process, path string, sig os.Signal, exited <-chan struct{}) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-exited:
			return
		case <-tick.C:
		}
		if _, err := os.Stat(path); err == nil {
			p.Signal(sig)
			return
		}
	}
}
