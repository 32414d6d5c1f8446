package command

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"companion/agent"
	"companion/agent/model"
	"companion/tools"
	"companion/tools/mcp"
)

// fakeModel answers every request with the next of its answers (the
// text "done" when they run out) and records the requests.
type fakeModel struct {
	mu      sync.Mutex
	answers []*model.Chunk
	reqs    []*model.Request
}

func (m *fakeModel) Stream(_ context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	answer := text("done")
	if len(m.answers) > 0 {
		answer, m.answers = m.answers[0], m.answers[1:]
	}
	m.mu.Unlock()
	return func(yield func(*model.Chunk, error) bool) { yield(answer, nil) }
}

func (m *fakeModel) ContextWindow(string) int { return 1000 }

func (m *fakeModel) requests() []*model.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.reqs)
}

func text(s string) *model.Chunk { return &model.Chunk{Parts: []model.Part{{Text: s}}} }

func call(name string, args map[string]any) *model.Chunk {
	return &model.Chunk{Parts: []model.Part{{FunctionCall: &model.FunctionCall{ID: "fc-" + name, Name: name, Args: args}}}}
}

// recorder is a Sink that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []agent.Event
}

func (r *recorder) Emit(_ context.Context, ev agent.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
}

func (r *recorder) all() []agent.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}

// lastMessage is the text of the last message chunk.
func (r *recorder) lastMessage() string {
	var out string
	for _, ev := range r.all() {
		if m, ok := ev.(agent.MessageChunk); ok {
			out = m.Text
		}
	}
	return out
}

// newTestSession is a session with this command layer, in a temporary
// folder holding AGENTS.md, with the echo tool and models m1 and m2.
func newTestSession(t *testing.T, m model.Model, opts ...func(*agent.Options)) (*agent.Session, *recorder) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("Use tabs."), 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	o := agent.Options{ID: "s1", Roots: roots, Model: m, ModelName: "m1", Models: []string{"m2"},
		Tools: tools.NewRegistry(echoTool{}), Sink: rec, Commands: New,
		Now: func() time.Time { return time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC) }}
	for _, f := range opts {
		f(&o)
	}
	s, err := agent.NewSession(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, rec
}

// prompt sends text as a prompt and fails the test when it fails.
func prompt(t *testing.T, s *agent.Session, text string) {
	t.Helper()
	if _, err := s.Prompt(context.Background(), userText(text)); err != nil {
		t.Fatalf("prompt %q: %v", text, err)
	}
}

// lastUserText is the text of the last content of req.
func lastUserText(req *model.Request) string {
	var b strings.Builder
	for _, p := range req.Contents[len(req.Contents)-1].Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func userText(s string) []model.Part { return []model.Part{{Text: s}} }

// echoTool returns its "text" argument.
type echoTool struct{}

func (echoTool) Name() string            { return "echo" }
func (echoTool) Description() string     { return "Echo text back.\nMore." }
func (echoTool) Kind() tools.Kind        { return tools.KindOther }
func (echoTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (echoTool) Prepare(_ *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	var p struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(args, &p); err != nil || p.Text == "" {
		return nil, errors.New(`missing required parameter "text"`)
	}
	return echoCall{p.Text}, nil
}

type echoCall struct{ text string }

func (c echoCall) Title() string                                           { return "Echo " + c.text }
func (echoCall) Locations() []tools.Location                               { return nil }
func (echoCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }
func (c echoCall) Execute(context.Context, tools.Output) (*tools.Result, error) {
	return &tools.Result{Text: c.text}, nil
}

// fakeMCP is MCP servers with no tools; Describe and Authorize answer
// /mcp, prompts are the servers' prompts.
type fakeMCP struct {
	prompts []mcp.Prompt
	asked   []string
}

func (f *fakeMCP) Tools() []tools.Tool                           { return nil }
func (f *fakeMCP) WaitReady(context.Context, time.Duration) bool { return true }
func (f *fakeMCP) Describe() string                              { return "servers described" }
func (f *fakeMCP) Prompts() []mcp.Prompt                         { return f.prompts }
func (f *fakeMCP) Close() error                                  { return nil }
func (f *fakeMCP) GetPrompt(_ context.Context, server, name string, args map[string]string) (string, error) {
	b, err := json.Marshal(args)
	return server + ":" + name + " " + string(b), err
}

func (f *fakeMCP) Authorize(_ context.Context, name string) (string, error) {
	f.asked = append(f.asked, name)
	if name == "nope" {
		return "", errors.New("unknown server")
	}
	return "open https://as.example/authorize?x=1", nil
}
