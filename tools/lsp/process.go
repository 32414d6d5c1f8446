package lsp

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

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
	stderr *tail
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
	cmd.Dir, cmd.Env = root, withEnv(os.Environ(), s.Env)
	p := &process{cmd: cmd, stderr: &tail{}, exited: make(chan struct{})}
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
	if t := p.stderr.last(); t != "" {
		msg += "; stderr: " + t
	}
	return msg
}

// withEnv returns base with extra set, in a stable order.
func withEnv(base []string, extra map[string]string) []string {
	if len(extra) == 0 {
		return base
	}
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if _, set := extra[name]; !set {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, k+"="+extra[k])
	}
	return out
}

// tail keeps the last stderrKeep bytes written to it.
type tail struct {
	// mu guards buf.
	mu  sync.Mutex
	buf []byte
}

// Write appends b, dropping the oldest bytes beyond the limit.
func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - stderrKeep; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// last is the last non-empty line written.
func (t *tail) last() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.buf)), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
