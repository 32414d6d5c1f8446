package acptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"sync"

	"companion/internal/testkit/testio"
)

// Fake is an editor's side of ACP: files (buffers over the disk),
// terminals (real local processes) and permission answers. Its Handle
// method is a HandlerFunc.
type Fake struct {
	// Answer picks the permission answer for a request; nil allows once.
	// Return "" to cancel.
	Answer func(req PermissionRequest) (optionID string, meta map[string]any)
	// Elicit answers elicitation/create (the request's params); nil
	// declines.
	Elicit func(params json.RawMessage) any

	// mu guards the fields below.
	mu           sync.Mutex
	buffers      map[string]string
	terms        map[string]*fakeTerm
	nextTerm     int
	Permissions  []PermissionRequest
	Elicitations []json.RawMessage
	Calls        []string // methods the agent called, in order
}

// PermissionRequest is what session/request_permission carried.
type PermissionRequest struct {
	ToolCall struct {
		ToolCallID string            `json:"toolCallId"`
		Title      string            `json:"title"`
		Kind       string            `json:"kind"`
		Content    []json.RawMessage `json:"content"`
	} `json:"toolCall"`
	Options []struct {
		OptionID string `json:"optionId"`
		Name     string `json:"name"`
		Kind     string `json:"kind"`
	} `json:"options"`
}

// NewFake returns a fake editor with no open buffers.
func NewFake() *Fake {
	return &Fake{buffers: map[string]string{}, terms: map[string]*fakeTerm{}}
}

// SetBuffer opens path with unsaved text.
func (f *Fake) SetBuffer(path, text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buffers[path] = text
}

// Unreleased lists terminals the agent created and never released.
func (f *Fake) Unreleased() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var ids []string
	for id := range f.terms {
		ids = append(ids, id)
	}
	return ids
}

// Handle serves the agent's requests.
func (f *Fake) Handle(method string, params json.RawMessage) (any, *RPCError) {
	f.mu.Lock()
	f.Calls = append(f.Calls, method)
	f.mu.Unlock()
	var p struct {
		Path, Content, TerminalID, Command, Cwd string
		Args                                    []string
	}
	json.Unmarshal(params, &p)
	switch method {
	case "fs/read_text_file":
		return f.read(p.Path)
	case "fs/write_text_file":
		f.mu.Lock()
		f.buffers[p.Path] = p.Content
		f.mu.Unlock()
		if err := os.WriteFile(p.Path, []byte(p.Content), 0o644); err != nil {
			return nil, &RPCError{Code: -32603, Message: err.Error()}
		}
		return nil, nil
	case "session/request_permission":
		return f.permission(params)
	case "elicitation/create":
		return f.elicit(params), nil
	case "terminal/create":
		return f.createTerminal(p.Command, p.Args, p.Cwd)
	case "terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release":
		return f.terminal(method, p.TerminalID)
	}
	return nil, &RPCError{Code: -32601, Message: "method not found"}
}

// elicit records an elicitation and answers it.
func (f *Fake) elicit(params json.RawMessage) any {
	f.mu.Lock()
	f.Elicitations = append(f.Elicitations, params)
	f.mu.Unlock()
	if f.Elicit == nil {
		return map[string]any{"action": "decline"}
	}
	return f.Elicit(params)
}

func (f *Fake) read(path string) (any, *RPCError) {
	f.mu.Lock()
	text, ok := f.buffers[path]
	f.mu.Unlock()
	if ok {
		return map[string]any{"content": text}, nil
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &RPCError{Code: -32002, Message: "Resource not found: " + path}
	}
	if err != nil {
		return nil, &RPCError{Code: -32603, Message: err.Error()}
	}
	return map[string]any{"content": string(data)}, nil
}

func (f *Fake) permission(params json.RawMessage) (any, *RPCError) {
	var req PermissionRequest
	json.Unmarshal(params, &req)
	f.mu.Lock()
	f.Permissions = append(f.Permissions, req)
	answer := f.Answer
	f.mu.Unlock()
	id, meta := "proceed_once", map[string]any(nil)
	if answer != nil {
		id, meta = answer(req)
	}
	if id == "" {
		return map[string]any{"outcome": map[string]any{"outcome": "cancelled"}}, nil
	}
	res := map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": id}}
	if meta != nil {
		res["_meta"] = meta
	}
	return res, nil
}

// fakeTerm is a terminal backed by a local process.
type fakeTerm struct {
	cmd  *exec.Cmd
	out  *testio.Buffer
	done chan struct{}
	code int
}

func (f *Fake) createTerminal(command string, args []string, cwd string) (any, *RPCError) {
	t := &fakeTerm{out: &testio.Buffer{}, done: make(chan struct{})}
	t.cmd = exec.CommandContext(context.Background(), command, args...)
	t.cmd.Dir = cwd
	t.cmd.Stdout, t.cmd.Stderr = t.out, t.out
	if err := t.cmd.Start(); err != nil {
		return nil, &RPCError{Code: -32603, Message: err.Error()}
	}
	go func() {
		t.cmd.Wait()
		t.code = t.cmd.ProcessState.ExitCode()
		close(t.done)
	}()
	f.mu.Lock()
	f.nextTerm++
	id := fmt.Sprintf("term-%d", f.nextTerm)
	f.terms[id] = t
	f.mu.Unlock()
	return map[string]any{"terminalId": id}, nil
}

func (f *Fake) terminal(method, id string) (any, *RPCError) {
	f.mu.Lock()
	t := f.terms[id]
	if method == "terminal/release" {
		delete(f.terms, id)
	}
	f.mu.Unlock()
	if t == nil {
		return nil, &RPCError{Code: -32002, Message: "terminal not found"}
	}
	switch method {
	case "terminal/wait_for_exit":
		<-t.done
		return t.exitStatus(), nil
	case "terminal/kill", "terminal/release":
		t.cmd.Process.Kill()
		return nil, nil
	}
	res := map[string]any{"output": t.out.String(), "truncated": false}
	select {
	case <-t.done:
		res["exitStatus"] = t.exitStatus()
	default:
	}
	return res, nil
}

// exitStatus is the ACP exit status of a finished process.
func (t *fakeTerm) exitStatus() map[string]any {
	if t.code < 0 {
		return map[string]any{"exitCode": nil, "signal": "SIGKILL"}
	}
	return map[string]any{"exitCode": t.code}
}
