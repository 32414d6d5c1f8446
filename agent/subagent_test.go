package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
	"companion/tools/mcp"
)

func TestLoadAgents(t *testing.T) {
	project, user := t.TempDir(), t.TempDir()
	write := func(dir, name, text string) {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	}
	write(filepath.Join(user, "agents"), "reviewer.md", "---\nname: reviewer\ndescription: user version\n---\nUser prompt.")
	write(filepath.Join(project, ".companion", "agents"), "reviewer.md", "---\ndescription: Reviews code\ntools: [read_file, grep]\nmax_turns: 5\ntimeout: 2m\n---\nYou review code.\n")
	write(filepath.Join(project, ".companion", "agents"), "broken.md", "no front matter")
	defs, errs := LoadAgents(project, user)
	if len(defs) != 1 || len(errs) != 1 {
		t.Fatalf("defs %+v errs %v", defs, errs)
	}
	d := defs[0]
	if d.Name != "reviewer" || d.Description != "Reviews code" || d.MaxTurns != 5 || d.Timeout.Minutes() != 2 ||
		strings.Join(d.Tools, ",") != "read_file,grep" || d.Prompt != "You review code." {
		t.Errorf("def = %+v", d)
	}
}

func TestDelegation(t *testing.T) {
	helper := AgentDef{Name: "helper", Description: "Echoes things", Tools: []string{"echo"}, Prompt: "You are the helper."}
	tests := []struct {
		name   string
		child  agenttest.Turn
		cancel bool
	}{
		{"answers", agenttest.Turn{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "from child"})}}, false},
		{"cancelled midway", agenttest.Turn{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "x", "block": true})}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &agenttest.Model{Turns: []agenttest.Turn{
				{Chunks: []*model.Chunk{agenttest.Call("delegate_to_agent", map[string]any{"agent": "helper", "task": "echo something"})}},
				tt.child,
				{Chunks: []*model.Chunk{agenttest.Text("child answer")}},
				{Chunks: []*model.Chunk{agenttest.Text("parent done")}},
			}}
			s, rec := newTestSession(t, m, func(o *Options) { o.Agents = []AgentDef{helper} })
			done := make(chan StopReason, 1)
			go func() {
				r, _ := s.Prompt(context.Background(), userText("delegate"))
				done <- r
			}()
			if tt.cancel {
				for ev := range rec.Seen {
					if u, ok := ev.(ToolCallUpdated); ok && strings.Contains(u.Text, "Echo x") {
						break
					}
				}
				s.Cancel()
				if r := <-done; r != Cancelled {
					t.Fatalf("stop = %q", r)
				}
				return
			}
			if r := <-done; r != EndTurn {
				t.Fatalf("stop = %q", r)
			}
			reqs := m.Requests()
			if len(reqs) != 4 {
				t.Fatalf("%d requests", len(reqs))
			}
			child := reqs[1]
			if !strings.HasPrefix(child.System, "You are the helper.") || len(child.Tools) != 1 || child.Tools[0].Name != "echo" {
				t.Errorf("child request: system %.30q tools %+v", child.System, child.Tools)
			}
			last := reqs[3].Contents
			resp := last[len(last)-1].Parts[0].FunctionResponse
			if resp == nil || framedText(t, reqs[3].System, resp.Response["output"]) != "child answer" {
				t.Errorf("delegation result = %+v", resp)
			}
			var streamed string
			for _, ev := range rec.All() {
				if u, ok := ev.(ToolCallUpdated); ok && u.ID == "call_1" {
					streamed = u.Text
				}
			}
			if !strings.Contains(streamed, "child answer") {
				t.Errorf("final content of the delegation = %q", streamed)
			}
		})
	}
}

// fakeMCP is a session's MCP servers with fixed tools.
type fakeMCP struct {
	tools  []tools.Tool
	closed bool
}

func (f *fakeMCP) Tools() []tools.Tool                           { return f.tools }
func (f *fakeMCP) WaitReady(context.Context, time.Duration) bool { return true }
func (f *fakeMCP) Describe() string                              { return "" }
func (f *fakeMCP) Prompts() []mcp.Prompt                         { return nil }
func (f *fakeMCP) Close() error                                  { f.closed = true; return nil }
func (f *fakeMCP) GetPrompt(context.Context, string, string, map[string]string) (string, error) {
	return "", nil
}

// renamed is agenttest.Echo under another name, standing in for an MCP tool.
type renamed struct {
	agenttest.Echo
	name string
}

func (r renamed) Name() string { return r.name }

// TestDelegationMCPTools: a subagent gets the parent's MCP tools its
// definition allows, and finishing it leaves the servers running.
func TestDelegationMCPTools(t *testing.T) {
	tests := []struct {
		name  string
		tools []string
		want  []string
	}{
		{"listed", []string{"echo", "mcp_docs_search"}, []string{"echo", "mcp_docs_search"}},
		{"not listed", []string{"echo"}, []string{"echo"}},
		{"no list: all", nil, []string{"delegate_to_agent", "echo", "mcp_docs_fetch", "mcp_docs_search"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			servers := &fakeMCP{tools: []tools.Tool{renamed{name: "mcp_docs_search"}, renamed{name: "mcp_docs_fetch"}}}
			m := &agenttest.Model{Turns: []agenttest.Turn{
				{Chunks: []*model.Chunk{agenttest.Call("delegate_to_agent", map[string]any{"agent": "helper", "task": "look it up"})}},
				{Chunks: []*model.Chunk{agenttest.Text("child answer")}},
				{Chunks: []*model.Chunk{agenttest.Text("parent done")}},
			}}
			helper := AgentDef{Name: "helper", Description: "Looks things up", Tools: tt.tools, Prompt: "You are the helper."}
			s, _ := newTestSession(t, m, func(o *Options) { o.Agents, o.MCP = []AgentDef{helper}, servers })
			if r, err := s.Prompt(context.Background(), userText("delegate")); r != EndTurn || err != nil {
				t.Fatalf("stop = %q, %v", r, err)
			}
			var got []string
			for _, d := range m.Requests()[1].Tools {
				got = append(got, d.Name)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("the subagent's tools = %q, want %q", got, tt.want)
			}
			if servers.closed {
				t.Error("the subagent closed the parent's MCP servers")
			}
		})
	}
}
