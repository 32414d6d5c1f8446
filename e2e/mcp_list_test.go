package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPListAllFiles: `companion mcp list` shows the servers of every
// file sessions start them from, each under its file (Gemini CLI's user
// and project settings, Claude Code's .mcp.json, written as those tools
// write them), with the ones a session does not start marked; `mcp
// remove` edits the one file that names the server, keeping its other
// keys and comments, and refuses a name several files have (issue 29,
// item 4).
func TestMCPListAllFiles(t *testing.T) {
	t.Parallel()
	e := env(t)
	home := strings.TrimPrefix(e[0], "HOME=")
	ws := workspace(t, map[string]string{
		".gemini/settings.json": `{
  // Gemini CLI's project settings
  "ui": {"theme": "GitHub"},
  "mcpServers": {
    "gem-project": {"command": "node", "args": ["gem.js"]},
    "shared": {"httpUrl": "https://gemini.example/mcp"}
  }
}`,
		".mcp.json": `{"mcpServers": {"claude-remote": {"type": "http", "url": "https://claude.example/mcp"},
  "shared": {"command": "shared-from-claude"}}}`,
	})
	geminiUser := filepath.Join(home, ".gemini", "settings.json")
	writeAt(t, home, ".gemini/settings.json", `{"mcpServers": {"gem-user": {"command": "gem-user-server"}}}`)
	run := func(args ...string) (string, error) {
		cmd := exec.Command(companionBin(t), args...)
		cmd.Env, cmd.Dir = e, ws
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("mcp", "list")
	if err != nil {
		t.Fatalf("list: %v\n%s", err, out)
	}
	for _, want := range []string{
		geminiUser + " (user, Gemini CLI's):\n  gem-user\tstdio\tgem-user-server\n",
		filepath.Join(ws, ".gemini", "settings.json") + " (project, Gemini CLI's):\n",
		"  gem-project\tstdio\tnode gem.js\n",
		"  shared\thttp\thttps://gemini.example/mcp\tauth: none\n",
		filepath.Join(ws, ".mcp.json") + " (project, Claude Code's):\n",
		"  claude-remote\thttp\thttps://claude.example/mcp",
		"  shared\tstdio\tshared-from-claude\tnot used: replaced by the one in " + filepath.Join(ws, ".gemini", "settings.json"),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	if out, err := run("mcp", "remove", "shared"); err == nil || !strings.Contains(out, `"shared" is in 2 files`) {
		t.Errorf("ambiguous remove: %v\n%s", err, out)
	}
	if out, err := run("mcp", "remove", "gem-project"); err != nil || !strings.Contains(out, "Gemini CLI reads that file too") {
		t.Errorf("remove gem-project: %v\n%s", err, out)
	}
	data, _ := os.ReadFile(filepath.Join(ws, ".gemini", "settings.json"))
	if s := string(data); strings.Contains(s, "gem-project") || !strings.Contains(s, "// Gemini CLI's project settings") ||
		!strings.Contains(s, `"theme": "GitHub"`) || !strings.Contains(s, "gemini.example") {
		t.Errorf(".gemini/settings.json after remove:\n%s", s)
	}
	if out, err := run("mcp", "remove", "--file", ".mcp.json", "shared"); err != nil {
		t.Errorf("remove --file: %v\n%s", err, out)
	}
	if out, err := run("mcp", "remove", "-s", "user", "gem-user"); err != nil {
		t.Errorf("remove gem-user: %v\n%s", err, out)
	}
	out, _ = run("mcp", "list")
	for _, gone := range []string{"gem-project", "shared-from-claude", "gem-user"} {
		if strings.Contains(out, gone) {
			t.Errorf("%s still listed:\n%s", gone, out)
		}
	}
	if out, err := run("mcp", "remove", "nowhere"); err == nil || !strings.Contains(out, filepath.Join(ws, ".mcp.json")) {
		t.Errorf("unknown name must fail naming the files looked in: %v\n%s", err, out)
	}
}
