package acptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"companion/acp/schemacheck"
	"companion/internal/testkit/testio"
)

// Timeout bounds every wait, so a broken agent fails a test instead of
// hanging it.
const Timeout = 20 * time.Second

// Msg is one JSON-RPC message as the editor saw it.
type Msg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *RPCError       `json:"error,omitempty"`
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string { return fmt.Sprintf("rpc error %d: %s", e.Code, e.Message) }

// HandlerFunc answers a request the agent sends (fs/*, permission). It
// returns the result, or an error to send back.
type HandlerFunc func(method string, params json.RawMessage) (any, *RPCError)

// Editor is a fake ACP client around a running agent: a child process
// (Start) or a server in the test's own process (StartServe).
type Editor struct {
	t      testing.TB
	stdin  io.WriteCloser
	stream *schemacheck.Stream
	// exited receives the agent's exit once (Close, Kill); gone is closed
	// when it exited, for any number of waiters.
	exited chan error
	gone   chan struct{}
	// wait waits for the agent to end once its output closed; stop ends
	// it at once, as a crash would.
	wait func() error
	stop func()
	// closed is set once the test closed stdin (Close): an answer to an
	// agent request still being made then has nowhere to go, as when an
	// editor quits with a question open, and is dropped.
	closed atomic.Bool

	// mu guards the fields below.
	mu       sync.Mutex
	nextID   int
	waiting  map[string]chan Msg
	received []Msg
	changed  chan struct{}
	handler  HandlerFunc
	problems []string
	stderr   bytes.Buffer
	// rawIDs are ids of raw (unvalidated) sends: their answers may not
	// match the schema's idea of a pending request.
	rawIDs map[string]bool
}

// Start runs bin with args and env and returns the editor talking to it.
// The process is stopped when the test ends.
func Start(t testing.TB, bin string, args, env []string, handler HandlerFunc) *Editor {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = testio.ChildEnv(env)
	e := newEditor(t, handler)
	e.wait = cmd.Wait
	e.stop = func() {
		if cmd.ProcessState == nil && cmd.Process != nil {
			cmd.Process.Kill()
		}
	}
	cmd.Stderr = testio.LockedWriter{Mu: &e.mu, W: &e.stderr}
	var err error
	e.stdin, err = cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go e.read(stdout)
	t.Cleanup(func() {
		// As an editor ends an agent: stdin closes and the agent shuts
		// down, its sessions ending their background work (a checkpoint
		// git still writing into the test's folders otherwise); killed
		// only when it does not exit in time.
		e.stdin.Close()
		select {
		case <-e.gone:
		case <-time.After(shutdownWait):
		}
		e.stop()
	})
	return e
}

// shutdownWait bounds how long a test's end waits for an agent to exit
// after its stdin closed, before killing it.
const shutdownWait = 5 * time.Second

// ServeFunc runs an agent on in and out until in ends or ctx is
// cancelled, logging to log; it is what StartServe runs in process.
type ServeFunc func(ctx context.Context, in io.Reader, out io.Writer, log io.Writer) error

// StartServe runs serve in the test's process over pipes and returns the
// editor talking to it: the same checks as Start without a child process,
// so the race detector sees the agent's goroutines and a test starts in
// microseconds. Stderr holds what serve logged. The agent is stopped when
// the test ends.
func StartServe(t testing.TB, serve ServeFunc, handler HandlerFunc) *Editor {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	e := newEditor(t, handler)
	e.stdin = inW
	e.wait = func() error { return <-done }
	e.stop = func() {
		cancel()
		inW.CloseWithError(io.ErrClosedPipe)
	}
	go func() {
		err := serve(ctx, inR, outW, testio.LockedWriter{Mu: &e.mu, W: &e.stderr})
		inR.CloseWithError(io.ErrClosedPipe) // later writes fail instead of blocking
		outW.Close()
		done <- err
	}()
	go e.read(outR)
	t.Cleanup(func() {
		e.stop()
		select {
		case <-e.gone:
		case <-time.After(Timeout):
			t.Errorf("in-process agent did not stop within %v", Timeout)
		}
	})
	return e
}

// newEditor returns an editor with its schema checker, before it is
// joined to an agent.
func newEditor(t testing.TB, handler HandlerFunc) *Editor {
	v, err := schemacheck.Shared()
	if err != nil {
		t.Fatal(err)
	}
	return &Editor{t: t, stream: v.NewStream(), exited: make(chan error, 1), gone: make(chan struct{}),
		waiting: map[string]chan Msg{}, rawIDs: map[string]bool{}, changed: make(chan struct{}), handler: handler}
}

// read consumes the agent's stdout: every line must be a valid message.
func (e *Editor) read(stdout io.Reader) {
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := bytes.Clone(sc.Bytes())
		var m Msg
		if err := json.Unmarshal(line, &m); err != nil {
			e.problem("agent wrote a non-JSON line to stdout: %s", clip(line))
			continue
		}
		if _, err := e.stream.Check(schemacheck.ToClient, line); err != nil && !e.isRaw(m) {
			e.problem("agent sent an invalid message: %v\n%s", err, clip(line))
		}
		e.dispatch(m)
	}
	e.exited <- e.wait()
	close(e.gone)
}

func (e *Editor) dispatch(m Msg) {
	switch {
	case m.Method != "" && len(m.ID) > 0:
		go e.answer(m)
	case m.Method == "":
		id := string(m.ID)
		if id == "" {
			id = "null"
		}
		e.mu.Lock()
		ch := e.waiting[id]
		delete(e.waiting, id)
		e.mu.Unlock()
		if ch == nil {
			e.problem("response to no pending request: id %s", m.ID)
			return
		}
		ch <- m
	}
	e.mu.Lock()
	e.received = append(e.received, m)
	close(e.changed)
	e.changed = make(chan struct{})
	e.mu.Unlock()
}

// answer serves a request from the agent with the handler.
func (e *Editor) answer(m Msg) {
	e.mu.Lock()
	h := e.handler
	e.mu.Unlock()
	var result any
	var rerr *RPCError
	if h != nil {
		result, rerr = h(m.Method, m.Params)
	} else {
		rerr = &RPCError{Code: -32601, Message: "method not found"}
	}
	reply := map[string]any{"jsonrpc": "2.0", "id": m.ID}
	if rerr != nil {
		reply["error"] = rerr
	} else {
		if result == nil {
			result = map[string]any{}
		}
		reply["result"] = result
	}
	e.write(reply, true)
}

// Call sends a request and waits for its response.
func (e *Editor) Call(method string, params any) Msg {
	e.t.Helper()
	ch := e.Send(method, params)
	return e.Wait(ch)
}

// Send sends a request and returns where its response will arrive.
func (e *Editor) Send(method string, params any) <-chan Msg {
	e.mu.Lock()
	id := e.nextID
	e.nextID++
	ch := make(chan Msg, 1)
	e.waiting[strconv.Itoa(id)] = ch
	e.mu.Unlock()
	e.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}, true)
	return ch
}

// Notify sends a notification.
func (e *Editor) Notify(method string, params any) {
	e.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params}, true)
}

// NotifyUnchecked sends a notification the schema does not know (an
// extension), without validating it.
func (e *Editor) NotifyUnchecked(method string, params any) {
	e.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params}, false)
}

// isRaw reports whether m answers a raw send.
func (e *Editor) isRaw(m Msg) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	id := string(m.ID)
	if id == "" {
		id = "null"
	}
	return m.Method == "" && e.rawIDs[id]
}

// SendRaw writes line as it is (plus a newline), unvalidated, and returns
// where the response with id (compact JSON text, "null" for id-less errors)
// will arrive.
//
// A line of up to rawCheckedBytes is recorded by the schema checker when it
// is a request, so that later messages are checked in its light. A longer
// one is not: tests send such lines to hit the agent's size limit, which
// refuses them unread, and decoding one against the schema costs seconds
// (about 15 s for 40 MiB under -race).
func (e *Editor) SendRaw(line []byte, id string) <-chan Msg {
	ch := make(chan Msg, 1)
	e.mu.Lock()
	e.waiting[id] = ch
	e.rawIDs[id] = true
	e.mu.Unlock()
	if len(line) <= rawCheckedBytes {
		e.stream.Check(schemacheck.ToAgent, line) // recorded when it is a request; errors expected
	}
	e.writeBytes(append(line, '\n'))
	return ch
}

// rawCheckedBytes bounds the raw lines SendRaw records (see there): well
// above any real request, well below the agent's 32 MiB message limit.
const rawCheckedBytes = 1 << 20

// Wait waits for a response.
func (e *Editor) Wait(ch <-chan Msg) Msg {
	e.t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(Timeout):
		e.t.Fatalf("no response within %v; agent stderr:\n%s", Timeout, e.Stderr())
		return Msg{}
	}
}

func (e *Editor) write(v any, validate bool) {
	line, err := json.Marshal(v)
	if err != nil {
		e.t.Errorf("marshal: %v", err)
		return
	}
	if validate {
		if _, err := e.stream.Check(schemacheck.ToAgent, line); err != nil {
			e.problem("test sent an invalid message: %v\n%s", err, clip(line))
		}
	}
	e.writeBytes(append(line, '\n'))
}

func (e *Editor) writeBytes(b []byte) {
	if _, err := e.stdin.Write(b); err != nil && !e.closed.Load() {
		e.problem("write to agent: %v", err)
	}
}

func (e *Editor) problem(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.problems = append(e.problems, fmt.Sprintf(format, args...))
}

// Stderr is what the agent logged so far.
func (e *Editor) Stderr() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stderr.String()
}

// Close ends stdin and expects the agent to exit 0 promptly, with no
// invalid message seen in either direction.
func (e *Editor) Close() {
	e.t.Helper()
	e.closed.Store(true)
	e.stdin.Close()
	select {
	case err := <-e.exited:
		if err != nil {
			e.t.Errorf("agent exited with %v; stderr:\n%s", err, e.Stderr())
		}
	case <-time.After(Timeout):
		e.t.Errorf("agent did not exit within %v of stdin closing", Timeout)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range e.problems {
		e.t.Error(p)
	}
	e.problems = nil
}

// clip shortens a line for a problem report.
func clip(b []byte) string { return testio.Clip(b, 300) }

// Kill ends the agent at once (SIGKILL for a process), as a crash would,
// and waits for it.
func (e *Editor) Kill() {
	e.stop()
	select {
	case <-e.exited:
	case <-time.After(Timeout):
		e.t.Errorf("agent did not die")
	}
}
