package lsp

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"

	"companion/internal/childproc"
	"companion/tools/procgroup"
)

// Wrap rewrites a server's command line to run it in the sandbox; nil
// runs it as it is.
type Wrap func(argv []string) ([]string, error)

// stderrKeep is how much of a server's stderr is kept to explain a crash.
const stderrKeep = 2 << 10

// process is a running server: a child in a process group of its own
// whose stdin and stdout carry the protocol.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *childproc.Tail
	// exited is closed once the process is reaped.
	exited chan struct{}
}

// startProcess starts s in root, its command line rewritten by wrap.
func startProcess(s Server, root string, wrap Wrap) (*process, error) {
	argv := append([]string{s.Path}, s.Args...)
	if wrap != nil {
		var err error
		if argv, err = wrap(argv); err != nil {
			return nil, fmt.Errorf("sandbox %s: %w", s.Name, err)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = root, childproc.Env(os.Environ(), s.Env)
	p := &process{cmd: cmd, stderr: &childproc.Tail{Max: stderrKeep}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	// A server's children may hold stderr open after it dies: stop
	// waiting for them.
	cmd.WaitDelay = time.Second
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	if err := procgroup.Start(cmd); err != nil {
		return nil, fmt.Errorf("start %s: %w", s.Name, err)
	}
	go p.wait()
	return p, nil
}

// wait reaps the process, then kills what is left of its group.
func (p *process) wait() {
	_ = p.cmd.Wait()
	procgroup.Kill(p.cmd.Process.Pid)
	close(p.exited)
}

// pid is the server's process id.
func (p *process) pid() int { return p.cmd.Process.Pid }

// stop ends the process group: SIGTERM, then SIGKILL after grace. It
// returns once the process is reaped.
func (p *process) stop(grace time.Duration) {
	_ = p.stdin.Close()
	procgroup.Terminate(p.pid())
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case <-p.exited:
	case <-timer.C:
		procgroup.Kill(p.pid())
		<-p.exited
	}
}

// Read, Write and Close make the process the protocol's stream.
func (p *process) Read(b []byte) (int, error)  { return p.stdout.Read(b) }
func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }
func (p *process) Close() error {
	err := p.stdin.Close()
	_ = p.stdout.Close()
	return err
}

// exitReason says how the process ended, with the last of its stderr.
func (p *process) exitReason() string {
	msg := "exited"
	if st := p.cmd.ProcessState; st != nil {
		msg = st.String()
	}
	if t := p.stderr.Lines(1); t != "" {
		msg += "; stderr: " + t
	}
	return msg
}
