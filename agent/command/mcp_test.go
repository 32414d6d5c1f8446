package command

import (
	"strings"
	"testing"

	"companion/agent"
	"companion/internal/testkit/agenttest"
	"companion/tools/mcp"
)

// TestMCPAuthCommand: /mcp describes the servers, /mcp auth NAME starts a
// server's authorization and says why it cannot.
func TestMCPAuthCommand(t *testing.T) {
	tests := []struct {
		arg, want string
	}{
		{"", "servers described"},
		{" auth remote", "open https://as.example/authorize?x=1"},
		{" auth", "Usage: /mcp auth NAME"},
		{" auth nope", "Cannot authorise nope: unknown server"},
	}
	srv := &fakeMCP{}
	s, rec := newTestSession(t, &agenttest.Model{}, func(o *agent.Options) { o.MCP = srv })
	for _, tt := range tests {
		prompt(t, s, "/mcp"+tt.arg)
		if got := lastMessage(rec); !strings.Contains(got, tt.want) {
			t.Errorf("/mcp%s = %q, want %q", tt.arg, got, tt.want)
		}
	}
	if strings.Join(srv.asked, ",") != "remote,nope" {
		t.Errorf("asked = %v", srv.asked)
	}
}

// TestMCPPromptCommand: an MCP server's prompt is the command
// server:prompt; its words fill the arguments in order or by name, and
// the prompt's text goes to the model.
func TestMCPPromptCommand(t *testing.T) {
	srv := &fakeMCP{prompts: []mcp.Prompt{{Server: "docs", Name: "find",
		Arguments: []mcp.PromptArgument{{Name: "topic"}, {Name: "depth"}}}}}
	m := &agenttest.Model{}
	s, _ := newTestSession(t, m, func(o *agent.Options) { o.MCP = srv })
	if !hasCommand(s, "docs:find") {
		t.Errorf("commands %v lack docs:find", s.Commands())
	}
	prompt(t, s, "/docs:find go depth=2")
	reqs := m.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if got := lastUserText(reqs[0]); !strings.Contains(got, `docs:find {"depth":"2","topic":"go"}`) {
		t.Errorf("the model got %q", got)
	}
}

// hasCommand reports whether s offers the command name.
func hasCommand(s *agent.Session, name string) bool {
	for _, c := range s.Commands() {
		if c.Name == name {
			return true
		}
	}
	return false
}
