package sdktest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"companion/internal/testkit/testio"

	"github.com/mark3labs/mcp-go/server"
)

// Options say how to start companion and how to answer its requests.
type Options struct {
	// Bin is the companion binary.
	Bin string
	// Args come after `run --input-format stream-json --output-format
	// stream-json` (--script, --model, --approval-mode ...).
	Args []string
	// Env is the whole environment of the process.
	Env []string
	// Dir is the working directory (the project).
	Dir string
	// CanUseTool answers can_use_tool; nil answers every one with an error
	// (which denies the call).
	CanUseTool CanUseToolFunc
	// Hooks answer hook_callback requests by callback id.
	Hooks map[string]HookFunc
	// MCPServers are the SDK-hosted MCP servers by name: mcp_message
	// requests for them are passed to their HandleMessage.
	MCPServers map[string]*server.MCPServer
}

// Session is a running `companion run` in stream-json mode.
type Session struct {
	opts   Options
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	ctx    context.Context // ends when the process has exited
	cancel context.CancelFunc
	done   chan struct{} // closed when stdout ended and the process exited
	exit   error         // the process's Wait error, set before done closes
	wg     sync.WaitGroup

	// writeMu serialises writes to stdin.
	writeMu sync.Mutex

	// mu guards the fields below.
	mu       sync.Mutex
	msgs     []Message
	changed  chan struct{}
	cursor   int
	nextID   int
	pending  map[string]chan controlResponse
	inbound  map[string]context.CancelFunc
	problems []string
	stderr   bytes.Buffer
}

// Start runs companion with o and returns the session. The process is
// killed, and the session's goroutines waited for, when the test ends.
func Start(t testing.TB, o Options) *Session {
	t.Helper()
	args := append([]string{"run", "--input-format", "stream-json", "--output-format", "stream-json"}, o.Args...)
	cmd := exec.Command(o.Bin, args...)
	cmd.Env, cmd.Dir = testio.ChildEnv(o.Env), o.Dir
	cmd.WaitDelay = 5 * time.Second // a leaked grandchild holding stderr must not hang Wait
	ctx, cancel := context.WithCancel(context.Background())
	s := &Session{opts: o, cmd: cmd, ctx: ctx, cancel: cancel, done: make(chan struct{}),
		changed: make(chan struct{}), pending: map[string]chan controlResponse{}, inbound: map[string]context.CancelFunc{}}
	cmd.Stderr = testio.LockedWriter{Mu: &s.mu, W: &s.stderr}
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go s.read(stdout)
	t.Cleanup(s.Kill)
	return s
}

// read consumes stdout until it ends, then reaps the process.
func (s *Session) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		s.receive(bytes.Clone(sc.Bytes()))
	}
	err := s.cmd.Wait()
	s.mu.Lock()
	s.exit = err
	for id, ch := range s.pending {
		close(ch)
		delete(s.pending, id)
	}
	s.mu.Unlock()
	s.cancel()
	close(s.done)
}

// receive records one stdout line and dispatches it.
func (s *Session) receive(line []byte) {
	m, err := ParseLine(line)
	if err != nil {
		s.problem("companion wrote a line that is not a message (%v): %s", err, clip(line))
		return
	}
	switch m.Type {
	case "control_response":
		s.deliver(m)
	case "control_request":
		s.serve(m)
	case "control_cancel_request":
		s.cancelInbound(m)
	case "user", "assistant", "system", "result", "stream_event":
		if m.UUID == "" || m.SessionID == "" {
			s.problem("%s message without uuid or session_id: %s", m.Type, clip(line))
		}
	default:
		s.problem("message of unknown type %q: %s", m.Type, clip(line))
	}
	s.mu.Lock()
	s.msgs = append(s.msgs, m)
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// Write sends line as it is, plus a newline: for malformed input.
func (s *Session) Write(line []byte) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if _, err := s.stdin.Write(append(bytes.Clone(line), '\n')); err != nil {
		return fmt.Errorf("write to companion: %w", err)
	}
	return nil
}

// send marshals v and writes it as one line.
func (s *Session) send(v any) error {
	line, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("marshal: %w", err)
	}
	return s.Write(line)
}

// SendUser sends a user message whose content is text.
func (s *Session) SendUser(text string) error {
	return s.SendUserContent(text)
}

// SendUserContent sends a user message with content: a string or a list of
// content blocks.
func (s *Session) SendUserContent(content any) error {
	return s.send(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": content}})
}

// Prompt sends text and waits for the result that ends it. It returns the
// result and every message from the send to the result (inclusive); the
// WaitFor cursor moves past the result.
func (s *Session) Prompt(ctx context.Context, text string) (Result, []Message, error) {
	from := s.Len()
	if err := s.SendUser(text); err != nil {
		return Result{}, nil, err
	}
	m, i, err := s.waitFrom(ctx, from, func(m Message) bool { return m.Type == "result" })
	if err != nil {
		return Result{}, nil, err
	}
	s.mu.Lock()
	turn := append([]Message(nil), s.msgs[from:i+1]...)
	s.cursor = max(s.cursor, i+1)
	s.mu.Unlock()
	r, err := m.Result()
	return r, turn, err
}

// Len is how many messages were received so far.
func (s *Session) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.msgs)
}

// Messages is every message received so far, in order.
func (s *Session) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// WaitFor waits for the first message after the cursor (the last message
// WaitFor or Prompt returned) that pred accepts, and moves the cursor past it.
func (s *Session) WaitFor(ctx context.Context, pred func(Message) bool) (Message, error) {
	s.mu.Lock()
	from := s.cursor
	s.mu.Unlock()
	m, i, err := s.waitFrom(ctx, from, pred)
	if err == nil {
		s.mu.Lock()
		s.cursor = max(s.cursor, i+1)
		s.mu.Unlock()
	}
	return m, err
}

// WaitFrom waits for the first message at index from or later that pred
// accepts and returns it with its index. It does not move the cursor.
func (s *Session) WaitFrom(ctx context.Context, from int, pred func(Message) bool) (Message, int, error) {
	return s.waitFrom(ctx, from, pred)
}

func (s *Session) waitFrom(ctx context.Context, from int, pred func(Message) bool) (Message, int, error) {
	for {
		s.mu.Lock()
		msgs, changed := s.msgs, s.changed
		s.mu.Unlock()
		for i := from; i < len(msgs); i++ {
			if pred(msgs[i]) {
				return msgs[i], i, nil
			}
		}
		from = max(from, len(msgs))
		select {
		case <-changed:
		case <-s.done:
			if s.Len() == len(msgs) {
				return Message{}, -1, ErrExited
			}
		case <-ctx.Done():
			return Message{}, -1, fmt.Errorf("waiting for a message: %w", ctx.Err())
		}
	}
}

// Close ends stdin and waits for companion to exit; it returns the exit
// code.
func (s *Session) Close(ctx context.Context) (int, error) {
	s.writeMu.Lock()
	s.stdin.Close()
	s.writeMu.Unlock()
	return s.Wait(ctx)
}

// Wait waits for companion to exit and for the goroutines answering its
// requests to return; it returns the exit code.
func (s *Session) Wait(ctx context.Context) (int, error) {
	select {
	case <-s.done:
	case <-ctx.Done():
		return -1, fmt.Errorf("waiting for companion to exit: %w", ctx.Err())
	}
	s.wg.Wait()
	var exit *exec.ExitError
	switch {
	case s.exit == nil:
		return 0, nil
	case errors.As(s.exit, &exit):
		return exit.ExitCode(), nil
	default:
		return -1, s.exit
	}
}

// Signal sends sig to the companion process.
func (s *Session) Signal(sig os.Signal) error { return s.cmd.Process.Signal(sig) }

// killWait bounds how long Kill waits for stdout to end after SIGKILL (a
// leaked grandchild may hold it open).
const killWait = 10 * time.Second

// Kill ends companion at once (if it still runs), cancels the handlers and
// waits for the session's goroutines.
func (s *Session) Kill() {
	s.cancel()
	select {
	case <-s.done:
	default:
		s.cmd.Process.Kill()
		select {
		case <-s.done:
		case <-time.After(killWait):
			return // the reader is stuck on a pipe a grandchild holds; nothing more to do
		}
	}
	s.wg.Wait()
}

// Stderr is what companion wrote to stderr so far.
func (s *Session) Stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// Problems lists protocol violations seen so far.
func (s *Session) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

func (s *Session) problem(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.problems = append(s.problems, fmt.Sprintf(format, args...))
}

// clip shortens a line for a problem report.
func clip(b []byte) string { return testio.Clip(b, 400) }
