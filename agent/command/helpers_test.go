package command

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"companion/agent"
	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
	"companion/tools/mcp"
)

// lastMessage is the text of the last message chunk r got.
func lastMessage(r *agenttest.Recorder[agent.Event]) string {
	var out string
	for _, ev := range r.All() {
		if m, ok := ev.(agent.MessageChunk); ok {
			out = m.Text
		}
	}
	return out
}

// newTestSession is a session with this command layer, in a temporary
// folder holding AGENTS.md, with the echo tool and models m1 and m2.
func newTestSession(t *testing.T, m model.Model, opts ...func(*agent.Options)) (*agent.Session, *agenttest.Recorder[agent.Event]) {
	t.Helper()
	rec := &agenttest.Recorder[agent.Event]{}
	o := agent.Options{ID: "s1", Roots: agenttest.Workspace(t), Model: m, ModelName: "m1", Models: []string{"m2"},
		Tools: tools.NewRegistry(agenttest.Echo{}), Sink: rec, Commands: New,
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
