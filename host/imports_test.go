package host

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"companion/config"
)

// TestProjectServersNeverTrusted: "trust": true skips the permission ask
// for a user's server only; a project's (from any of its files) asks.
func TestProjectServersNeverTrusted(t *testing.T) {
	cfg := config.Config{
		MCPServers:        json.RawMessage(`{"mine":{"command":"a","trust":true,"timeout":1500,"includeTools":["x"],"excludeTools":["y"]}}`),
		ProjectMCPServers: json.RawMessage(`{"theirs":{"type":"http","url":"https://h/mcp","trust":true,"headers":{"A":"b"}}}`),
	}
	servers, fromProject := mcpServers(cfg, slog.New(slog.DiscardHandler))
	byName := map[string]bool{}
	for _, s := range servers {
		byName[s.Name] = s.Trust
		if s.Name == "mine" && (s.Timeout.Milliseconds() != 1500 || !slices.Equal(s.IncludeTools, []string{"x"}) || !slices.Equal(s.ExcludeTools, []string{"y"})) {
			t.Errorf("user server fields lost: %+v", s)
		}
		if s.Name == "theirs" && (s.Headers["A"] != "b" || s.URL != "https://h/mcp") {
			t.Errorf("project server fields lost: %+v", s)
		}
	}
	if !byName["mine"] || byName["theirs"] || !fromProject["theirs"] {
		t.Errorf("trust = %v, from project %v", byName, fromProject)
	}
}

// TestImportedDefinitionsFollowTrust: Gemini CLI's and Claude Code's
// subagents and commands in the project load in a trusted workspace
// only; the home folder's always do.
func TestImportedDefinitionsFollowTrust(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	for p, text := range map[string]string{
		filepath.Join(home, ".claude", "agents", "homeagent.md"):   "---\ndescription: d\n---\nx",
		filepath.Join(home, ".gemini", "commands", "homecmd.toml"): "prompt = \"p\"\n",
		filepath.Join(root, ".gemini", "agents", "projagent.md"):   "---\ndescription: d\n---\nx",
		filepath.Join(root, ".claude", "agents", "claudeagent.md"): "---\ndescription: d\n---\nx",
		filepath.Join(root, ".gemini", "commands", "projcmd.toml"): "prompt = \"p\"\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := slog.New(slog.DiscardHandler)
	for _, trusted := range []bool{false, true} {
		agents, cmds := definitions(root, "", home, trusted, log)
		var names []string
		for _, a := range agents {
			names = append(names, a.Name)
		}
		for _, c := range cmds {
			names = append(names, c.Name)
		}
		want := []string{"homeagent", "homecmd"}
		if trusted {
			want = []string{"claudeagent", "homeagent", "projagent", "homecmd", "projcmd"}
		}
		if !slices.Equal(names, want) {
			t.Errorf("trusted=%v: %q, want %q", trusted, names, want)
		}
	}
}
