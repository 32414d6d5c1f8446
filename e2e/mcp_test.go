package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/acptest"
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

// TestMCPFromSessionNew passes MCP servers with session/new: a real one
// (server-everything over stdio) whose tool the model calls after the
// user approves it, and one that exits at once, which must not break the
// session and shows in /mcp.
func TestMCPFromSessionNew(t *testing.T) {
	entry := everything(t)
	ws := workspace(t, nil)
	fake := acptest.NewFake()
	ed := startFake(t, `{"turns":[
		{"chunks":[{"functionCall":{"name":"mcp_everything_echo","args":{"message":"hello mcp"}}}]},
		{"match":"Echo: hello mcp","chunks":[{"text":"The server echoed."}]}],"fallback":"error"}`, fake, "")
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
