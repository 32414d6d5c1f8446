package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// everything returns the npm MCP test server's entry point, or skips.
func everything(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	p, _ := filepath.Abs(filepath.Join("..", "tools", "mcp", "testdata", "npm", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"))
	if _, err := os.Stat(p); err != nil {
		t.Skip("server-everything is not installed: run `make test-deps`")
	}
	return p
}

// waitConnected waits until the agent lists a prompt of MCP server name as
// a slash command, which it does once the server has connected: the first
// prompt waits for servers only a short while, which a loaded machine
// starting Node can overrun.
func waitConnected(ed *acptest.Editor, name string) {
	ed.WaitFor(func(m acptest.Msg) bool {
		p := string(m.Params)
		return m.Method == "session/update" && strings.Contains(p, "available_commands_update") &&
			strings.Contains(p, `"name":"`+name+`:`)
	})
}

// TestMCPFromSessionNew passes MCP servers with session/new: a real one
// (server-everything over stdio) whose tool the model calls after the
// user approves it, and one that exits at once, which must not break the
// session and shows in /mcp.
func TestMCPFromSessionNew(t *testing.T) {
	t.Parallel()
	entry := everything(t)
	ws := workspace(t, nil)
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: `{"turns":[
		{"chunks":[{"functionCall":{"name":"mcp_everything_echo","args":{"message":"hello mcp"}}}]},
		{"match":"Echo: hello mcp","chunks":[{"text":"The server echoed."}]}],"fallback":"error"}`, handler: fake.Handle})
	init := ed.Initialize(map[string]any{})
	if !strings.Contains(string(init.Result), `"mcpCapabilities":{"http":true,"sse":true}`) {
		t.Errorf("mcpCapabilities: %s", init.Result)
	}
	m := ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{
		map[string]any{"name": "everything", "command": "node", "args": []string{entry, "stdio"}, "env": []any{}},
		map[string]any{"name": "broken", "command": "/bin/false", "args": []string{}, "env": []any{}},
		map[string]any{"type": "http", "name": "nowhere", "url": "http://127.0.0.1:9/mcp", "headers": []any{map[string]any{"name": "X-Test", "value": "1"}}},
	}})
	if m.Error != nil {
		t.Fatalf("session/new: %v", m.Error)
	}
	id := sessionID(m)
	waitConnected(ed, "everything")
	warned := ed.WaitFor(func(msg acptest.Msg) bool {
		return msg.Method == "session/update" && strings.Contains(string(msg.Params), "MCP server broken failed")
	})
	if !strings.Contains(string(warned.Params), "agent_message_chunk") {
		t.Errorf("failure report = %s", warned.Params)
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "echo it"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	if len(fake.Permissions) != 1 || !strings.Contains(strings.ToLower(fake.Permissions[0].ToolCall.Title), "echo") {
		t.Errorf("MCP call not confirmed: %+v", fake.Permissions)
	}
	before := len(ed.Updates(id))
	ed.StopReason(ed.Wait(ed.Prompt(id, "/mcp")))
	var report string
	for _, u := range ed.Updates(id)[before:] {
		report += u.Text()
	}
	for _, want := range []string{"everything", "broken", "nowhere"} {
		if !strings.Contains(report, want) {
			t.Errorf("/mcp does not mention %s:\n%s", want, report)
		}
	}
	ed.Close()
}

// TestMCPElicitation: server-everything's form (every kind of field) is
// put to the editor as elicitation/create, tied to the session, and the
// user's answer reaches the server, whose result reaches the model.
func TestMCPElicitation(t *testing.T) {
	t.Parallel()
	entry := everything(t)
	ws := workspace(t, nil)
	fake := acptest.NewFake()
	fake.Elicit = func(json.RawMessage) any {
		return map[string]any{"action": "accept", "content": map[string]any{"name": "Ada Lovelace", "check": true, "integer": 7}}
	}
	ed := startAgent(t, agentOpts{script: `{"turns":[
		{"chunks":[{"functionCall":{"name":"mcp_everything_trigger_elicitation_request","args":{}}}]},
		{"match":"Name: Ada Lovelace","chunks":[{"text":"The form came back."}]}],"fallback":"error"}`, handler: fake.Handle})
	ed.Initialize(map[string]any{"elicitation": map[string]any{"form": map[string]any{}}})
	m := ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{
		map[string]any{"name": "everything", "command": "node", "args": []string{entry, "stdio"}, "env": []any{}}}})
	if m.Error != nil {
		t.Fatalf("session/new: %v", m.Error)
	}
	id := sessionID(m)
	waitConnected(ed, "everything")
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "ask me"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	var text string
	for _, u := range ed.Updates(id) {
		if u.Kind == "agent_message_chunk" {
			text += u.Text()
		}
	}
	if !strings.Contains(text, "The form came back.") {
		t.Errorf("answer = %q: the server's result did not carry the user's input", text)
	}
	if len(fake.Elicitations) != 1 {
		t.Fatalf("%d elicitations", len(fake.Elicitations))
	}
	var req struct {
		Mode, Message, SessionID string
		RequestedSchema          struct {
			Properties map[string]map[string]any
			Required   []string
		}
	}
	json.Unmarshal(fake.Elicitations[0], &req)
	props := req.RequestedSchema.Properties
	if req.Mode != "form" || req.SessionID != id || !strings.HasPrefix(req.Message, "MCP server everything: ") ||
		props["name"]["type"] != "string" || props["integer"]["type"] != "integer" || props["untitledMultipleSelectEnum"]["type"] != "array" ||
		!slices.Equal(req.RequestedSchema.Required, []string{"name"}) {
		t.Errorf("elicitation/create = %s", fake.Elicitations[0])
	}
	ed.Close()
}
