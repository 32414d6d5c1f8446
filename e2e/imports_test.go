package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"companion/internal/testkit/acptest"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// impMCP serves one MCP tool, ping, over streamable HTTP and counts the
// requests it gets.
func impMCP(t *testing.T) (url string, hits *atomic.Int32) {
	t.Helper()
	s := mcpserver.NewMCPServer("imported", "1.0.0", mcpserver.WithToolCapabilities(true))
	s.AddTool(mcpgo.NewTool("ping", mcpgo.WithDescription("Answers pong.")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("pong"), nil
		})
	inner := mcpserver.NewStreamableHTTPServer(s)
	hits = new(atomic.Int32)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		inner.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", hits
}

// impSetup makes a home whose user settings turn folder trust on, and a
// workspace with a Gemini CLI command (.gemini/commands/x.toml) and a
// Claude Code MCP server (.mcp.json) reaching mcpURL, which claims
// "trust": true (a project's server cannot skip the ask).
func impSetup(t *testing.T, mcpURL string) (env []string, ws string) {
	t.Helper()
	home := t.TempDir()
	files := map[string]string{
		filepath.Join(home, ".config", "companion", "settings.json"): "{\n  // folder trust on, so trust is the user's choice\n  \"folderTrust\": {\"enabled\": true},\n}\n",
	}
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mcpJSON, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"imported": map[string]any{"type": "http", "url": mcpURL, "trust": true}}})
	files[filepath.Join(ws, ".gemini", "commands", "x.toml")] = "description = \"Imported from Gemini CLI\"\nprompt = \"Say imported {{args}}\"\n"
	files[filepath.Join(ws, ".mcp.json")] = string(mcpJSON)
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
	return env, ws
}

// impRun runs the real binary's subcommand and fails the test unless it
// succeeds.
func impRun(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(companionBin(t), args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("companion %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// impScript writes a scripted model file.
func impScript(t *testing.T, s string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImportsFollowTrust (issue 19, item 4): through the real binary, a
// Gemini CLI file command and a Claude Code .mcp.json server are loaded
// in a trusted workspace (once its settings are accepted, as companion's
// own), and neither is in an untrusted one, accepted or not.
func TestImportsFollowTrust(t *testing.T) {
	t.Parallel()
	t.Run("trusted", func(t *testing.T) {
		url, hits := impMCP(t)
		env, ws := impSetup(t, url)
		impRun(t, env, "trust", ws)
		impRun(t, env, "settings", "accept", ws)
		if out := impRun(t, env, "config", "show", "--json", "--dir", ws); !strings.Contains(out, `"projectMcpServers"`) ||
			!strings.Contains(out, filepath.Join(ws, ".mcp.json")) {
			t.Errorf("config show does not name the .mcp.json server:\n%s", out)
		}
		s := impScript(t, `{"turns":[
			{"match":"Say imported hello","chunks":[{"functionCall":{"name":"mcp_imported_ping","args":{}}}]},
			{"match":"pong","chunks":[{"text":"imported ok"}]}],"fallback":"error"}`)
		fake := acptest.NewFake()
		ed := acptest.Start(t, companionBin(t), []string{"acp", "--script", s}, env, fake.Handle)
		ed.Initialize(map[string]any{})
		id := ed.NewSession(ws)
		if cmds := ed.WaitUpdate(id, "available_commands_update"); !strings.Contains(string(cmds.Raw), `"name":"x"`) {
			t.Errorf("the .gemini/commands command is missing: %s", cmds.Raw)
		}
		if got := ed.StopReason(ed.Wait(ed.Prompt(id, "/x hello"))); got != "end_turn" {
			t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
		}
		ed.Close()
		if hits.Load() == 0 {
			t.Error("the .mcp.json server was never reached")
		}
		if len(fake.Permissions) != 1 {
			t.Errorf("the project server's tool must be asked about despite its trust: %d asks", len(fake.Permissions))
		}
	})
	t.Run("untrusted", func(t *testing.T) {
		url, hits := impMCP(t)
		env, ws := impSetup(t, url)
		impRun(t, env, "settings", "accept", ws) // accepted, yet the folder is not trusted
		s := impScript(t, `{"turns":[{"chunks":[{"text":"plain"}]}],"fallback":"error"}`)
		ed := acptest.Start(t, companionBin(t), []string{"acp", "--script", s}, env, nil)
		ed.Initialize(map[string]any{})
		id := ed.NewSession(ws)
		if cmds := ed.WaitUpdate(id, "available_commands_update"); strings.Contains(string(cmds.Raw), `"name":"x"`) {
			t.Errorf("an untrusted workspace's .gemini command was loaded: %s", cmds.Raw)
		}
		if got := ed.StopReason(ed.Wait(ed.Prompt(id, "hi"))); got != "end_turn" {
			t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
		}
		ed.Close()
		if n := hits.Load(); n != 0 {
			t.Errorf("an untrusted workspace's .mcp.json server was contacted %d times", n)
		}
	})
}
