package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/agent/model"
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
		child  fakeTurn
		cancel bool
	}{
		{"answers", fakeTurn{chunks: []*model.Chunk{call("echo", map[string]any{"text": "from child"})}}, false},
		{"cancelled midway", fakeTurn{chunks: []*model.Chunk{call("echo", map[string]any{"text": "x", "block": true})}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{turns: []fakeTurn{
				{chunks: []*model.Chunk{call("delegate_to_agent", map[string]any{"agent": "helper", "task": "echo something"})}},
				tt.child,
				{chunks: []*model.Chunk{text("child answer")}},
				{chunks: []*model.Chunk{text("parent done")}},
			}}
			s, rec := newTestSession(t, m, func(o *Options) { o.Agents = []AgentDef{helper} })
			done := make(chan StopReason, 1)
			go func() {
				r, _ := s.Prompt(context.Background(), userText("delegate"))
				done <- r
			}()
			if tt.cancel {
				for ev := range rec.seen {
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
			reqs := m.requests()
			if len(reqs) != 4 {
				t.Fatalf("%d requests", len(reqs))
			}
			child := reqs[1]
			if !strings.HasPrefix(child.System, "You are the helper.") || len(child.Tools) != 1 || child.Tools[0].Name != "echo" {
				t.Errorf("child request: system %.30q tools %+v", child.System, child.Tools)
			}
			last := reqs[3].Contents
			resp := last[len(last)-1].Parts[0].FunctionResponse
			if resp == nil || resp.Response["output"] != "child answer" {
				t.Errorf("delegation result = %+v", resp)
			}
			var streamed string
			for _, ev := range rec.all() {
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
