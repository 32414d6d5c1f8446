package config

import (
	"os"
	"path/filepath"
	"testing"
)

// TestListAllMCPServers: every file's servers are listed with their file,
// and the ones sessions do not start say why: Gemini CLI's user file is
// not read when companion's names servers, the earlier project file wins
// a name, and a project's server replaces the user's.
func TestListAllMCPServers(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string // relative to a folder holding home/ and ws/
		unused map[string]string // "file name" → the start of the reason, "" when used
	}{
		{"gemini user file read when companion's has none",
			map[string]string{"home/.gemini/settings.json": `{"mcpServers":{"g":{"command":"g"}}}`},
			map[string]string{"home/.gemini/settings.json g": ""}},
		{"gemini user file not read when companion's names servers",
			map[string]string{"user.json": `{"mcpServers":{"c":{"command":"c"}}}`,
				"home/.gemini/settings.json": `{"mcpServers":{"g":{"command":"g"}}}`},
			map[string]string{"user.json c": "", "home/.gemini/settings.json g": "USER names MCP servers"}},
		{"earlier project file wins",
			map[string]string{"ws/.gemini/settings.json": `{"mcpServers":{"s":{"command":"a"}}}`,
				"ws/.mcp.json": `{"mcpServers":{"s":{"type":"sse","url":"https://x"}}}`},
			map[string]string{"ws/.gemini/settings.json s": "", "ws/.mcp.json s": "replaced by the one in"}},
		{"project replaces user",
			map[string]string{"user.json": `{"mcpServers":{"s":{"command":"a"}}}`,
				"ws/.mcp.json": `{"mcpServers":{"s":{"command":"b"}}}`},
			map[string]string{"user.json s": "replaced by the project's in", "ws/.mcp.json s": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				p := filepath.Join(dir, name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			user := filepath.Join(dir, "user.json")
			got, err := ListAllMCPServers(MCPSources(user, filepath.Join(dir, "home"), filepath.Join(dir, "ws")))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.unused) {
				t.Fatalf("%d entries, want %d: %+v", len(got), len(tt.unused), got)
			}
			for _, e := range got {
				rel, _ := filepath.Rel(dir, e.Source.Path)
				want, ok := tt.unused[rel+" "+e.Name]
				if want == "USER names MCP servers" {
					want = user + " names MCP servers"
				}
				if !ok || len(e.Unused) < len(want) || e.Unused[:len(want)] != want || (want == "") != (e.Unused == "") {
					t.Errorf("%s %s: unused %q, want %q", rel, e.Name, e.Unused, want)
				}
			}
		})
	}
}

// TestMCPTransport: the transport comes from type when set (as .mcp.json
// writes it), else from the fields.
func TestMCPTransport(t *testing.T) {
	for _, tt := range []struct {
		s    MCPServer
		want string
	}{
		{MCPServer{Command: "x"}, "stdio"},
		{MCPServer{HTTPURL: "https://h"}, "http"},
		{MCPServer{URL: "https://h"}, "sse"},
		{MCPServer{URL: "https://h", Type: "http"}, "http"},
		{MCPServer{URL: "https://h", Type: "streamable-http"}, "http"},
	} {
		if got := tt.s.Transport(); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.s, got, tt.want)
		}
	}
}
