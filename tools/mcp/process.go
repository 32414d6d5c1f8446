package mcp

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"time"

	"companion/internal/childproc"
	"companion/tools/procgroup"
)

// stderrTailSize is how much of a server's recent stderr is kept to explain
// why it failed.
const stderrTailSize = 4 << 10

// stderrDrainWait bounds the wait for a dead server's last stderr lines.
const stderrDrainWait = 250 * time.Millisecond

// process is a running stdio server: a child in a process group of its own,
// with pipes that companion owns (so that it, not the MCP library, reaps the
// child and learns at once when it exits).
type process struct {
	cmd *exec.Cmd
	pid int
	// stdin and stdout are companion's ends of the server's stdin and
	// stdout; the MCP transport writes and reads them.
	stdin  *os.File
	stdout *os.File
	// stderr is companion's end of the server's stderr, copied into tail.
	stderr *os.File
	tail   *childproc.Tail
	// copied is closed when copying stderr has ended.
	copied chan struct{}
	// exited is closed once the process is reaped; waitErr is set before.
	exited  chan struct{}
	waitErr error
	// gate, when set, tracks the process (see Gate).
	gate *Gate
}

// startProcess starts cfg's command with its arguments, environment and
// directory, in a new process group: rewritten by cfg.Wrap (the sandbox)
// when set, and only while cfg.Gate, when set, is open.
func startProcess(cfg *ServerConfig, log *slog.Logger) (*process, error) {
	argv := append([]string{cfg.Command}, cfg.Args...)
	if cfg.Wrap != nil {
		var err error
		if argv, err = cfg.Wrap(argv); err != nil {
			return nil, fmt.Errorf("start %s: %w", cfg.Command, err)
		}
	}
	var files [6]*os.File // inR, inW, outR, outW, errR, errW
	for i := 0; i < len(files); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeFiles(files[:i]...)
			return nil, fmt.Errorf("create pipe: %w", err)
		}
		files[i], files[i+1] = r, w
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = cfg.Cwd
	cmd.Env = childproc.Env(os.Environ(), cfg.Env)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files[0], files[3], files[5]
	err := startIn(cfg.Gate, cmd)
	closeFiles(files[0], files[3], files[5])
	if err != nil {
		closeFiles(files[1], files[2], files[4])
		return nil, fmt.Errorf("start %s: %w", cfg.Command, err)
	}
	p := &process{
		cmd: cmd, pid: cmd.Process.Pid,
		stdin: files[1], stdout: files[2], stderr: files[4],
		tail: &childproc.Tail{Max: stderrTailSize}, copied: make(chan struct{}), exited: make(chan struct{}), gate: cfg.Gate,
	}
	go p.copyStderr(log.With("server", cfg.Name))
	go p.wait()
	return p, nil
}

// startIn starts cmd in a process group of its own, through gate when it
// is set.
func startIn(gate *Gate, cmd *exec.Cmd) error {
	if gate == nil {
		return procgroup.Start(cmd)
	}
	return gate.admit(func() (int, error) {
		if err := procgroup.Start(cmd); err != nil {
			return 0, err
		}
		return cmd.Process.Pid, nil
	})
}

// wait reaps the process, then kills what is left of its group (children
// of a server that crashed).
func (p *process) wait() {
	p.waitErr = p.cmd.Wait()
	if p.gate != nil {
		p.gate.forget(p.pid)
	}
	procgroup.Kill(p.pid)
	close(p.exited)
}

// copyStderr keeps the tail of the server's stderr and logs it at debug
// level. It ends when every process holding the pipe is gone, or when stop
// closes it.
func (p *process) copyStderr(log *slog.Logger) {
	defer close(p.copied)
	buf := make([]byte, 4096)
	for {
		n, err := p.stderr.Read(buf)
		if n > 0 {
			_, _ = p.tail.Write(buf[:n])
			log.Debug("mcp server stderr", "text", strings.TrimRight(string(buf[:n]), "\n"))
		}
		if err != nil {
			return
		}
	}
}

// stop ends the process group: SIGTERM at once (stdin is closed too), then
// SIGKILL when grace has passed. It returns once the process is reaped and
// every pipe is closed.
func (p *process) stop(grace time.Duration) {
	_ = p.stdin.Close()
	procgroup.Terminate(p.pid)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
		procgroup.Kill(p.pid)
		<-p.exited
	}
	closeFiles(p.stdout, p.stderr)
	<-p.copied
}

// exitError explains how the process ended, with the tail of its stderr.
// The last lines a crashing server wrote may still be in the pipe when it
// is reaped, so it waits a moment for the copy to drain (the group is
// dead, so the pipe reaches its end at once).
func (p *process) exitError() error {
	select {
	case <-p.copied:
	case <-time.After(stderrDrainWait):
	}
	status := "exit status 0"
	if p.waitErr != nil {
		status = p.waitErr.Error()
	}
	msg := status
	if tail := p.tail.Lines(5); tail != "" {
		msg += "; stderr: " + tail
	}
	return fmt.Errorf("%w: %s", ErrServerExited, msg)
}

// closeFiles closes every non-nil file, ignoring errors (double closes).
func closeFiles(files ...*os.File) {
	for _, f := range files {
		if f != nil {
			_ = f.Close()
		}
	}
}
