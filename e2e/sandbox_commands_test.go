package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/acptest"

	"companion/internal/testkit/testio"
)

// sbxMCPServerScript is a stdio MCP server in bash: it writes its pid to
// $1 (when not empty; renamed into place, so a reader never sees it empty),
// touches every further argument (failures ignored:
// a sandbox may refuse), then answers initialize, tools/list and
// tools/call (its one tool, note, returns $SBX_NOTE).
const sbxMCPServerScript = `#!/bin/bash
[ -n "$1" ] && echo $$ > "$1.tmp" && mv "$1.tmp" "$1"
shift
for f in "$@"; do touch "$f" 2>/dev/null; done
[ -n "$SBX_CONNECT" ] && (exec 3<>"/dev/tcp/127.0.0.1/$SBX_CONNECT") 2>/dev/null
reply() { printf '{"jsonrpc":"2.0","id":%s,"result":%s}\n' "$id" "$1"; }
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/^{.*"id":\([0-9][0-9]*\).*/\1/p')
  case "$line" in
  *'"method":"initialize"'*)
    pv=$(printf '%s' "$line" | sed -n 's/.*"protocolVersion":"\([^"]*\)".*/\1/p')
    reply "{\"protocolVersion\":\"$pv\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"sbx\",\"version\":\"1\"}}";;
  *'"method":"tools/list"'*)
    reply '{"tools":[{"name":"note","description":"Returns the note.","inputSchema":{"type":"object","properties":{}}}]}';;
  *'"method":"tools/call"'*)
    note=$(printf '%s' "${SBX_NOTE:-a note}" | sed 's/\\/\\\\/g; s/"/\\"/g')
    reply "{\"content\":[{\"type\":\"text\",\"text\":\"$note\"}]}";;
  *'"method":"notifications/'*) ;;
  *'"method":'*) [ -n "$id" ] && reply '{}';;
  esac
done
`

// sbxMCPServer writes the bash MCP server into dir (outside /tmp when a
// sandbox must see it) and returns its path.
func sbxMCPServer(t *testing.T, dir string) string {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	p := filepath.Join(dir, "mcp.sh")
	if err := os.WriteFile(p, []byte(sbxMCPServerScript), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// sbxWriteJSON writes v as JSON to path, making its directory.
func sbxWriteJSON(t *testing.T, path string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	sbxWriteJSONRaw(t, path, data)
}

// sbxWriteJSONRaw writes data to path, making its directory.
func sbxWriteJSONRaw(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// sbxUserSettings writes the user settings of env e (see sbxEnv).
func sbxUserSettings(t *testing.T, e []string, v any) {
	t.Helper()
	home := strings.TrimPrefix(e[0], "HOME=")
	sbxWriteJSON(t, filepath.Join(home, ".config", "companion", "settings.json"), v)
}

// sbxAccept accepts the project settings of ws, so that their hooks and
// MCP servers load.
func sbxAccept(t *testing.T, e []string, ws string) {
	t.Helper()
	cmd := exec.Command(companionBin(t), "settings", "accept", ws)
	cmd.Env = e
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("companion settings accept: %v\n%s", err, out)
	}
}

// sbxWaitFile waits up to 15 s for path to exist and reports whether it
// does.
func sbxWaitFile(path string) bool {
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if sbxExists(path) {
			return true
		}
	}
	return false
}

// sbxHook is a hook entry that touches files.
func sbxHook(files ...string) map[string]any {
	return map[string]any{"command": "cat > /dev/null; touch " + strings.Join(files, " ") + " 2>/dev/null; exit 0"}
}

// TestSandboxHooksAndMCP: with the workspace-write sandbox, hooks and
// stdio MCP servers run sandboxed: they write the workspace but nothing
// outside it. A user server's "sandbox": false runs it outside; the same
// opt-out in the project's settings is ignored.
func TestSandboxHooksAndMCP(t *testing.T) {
	t.Parallel()
	base := sbxBase(t)
	// Writes go into a folder: the top level of a workspace without .git
	// is read-only in the sandbox.
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(ws, "src"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srv := sbxMCPServer(t, base)
	hookLn, boxedLn, nonetLn := testio.Listen(t, false), testio.Listen(t, false), testio.Listen(t, false)
	server := func(name string, optOut bool) map[string]any {
		s := map[string]any{"command": "bash", "args": []string{srv, "", filepath.Join(ws, "src", name+"-in"), filepath.Join(out, name)}}
		if optOut {
			s["sandbox"] = false
		}
		return s
	}
	boxed, nonet := server("boxed", false), server("nonet", false)
	boxed["env"] = map[string]string{"SBX_CONNECT": strconv.Itoa(boxedLn.Port)}
	nonet["env"], nonet["sandboxNetwork"] = map[string]string{"SBX_CONNECT": strconv.Itoa(nonetLn.Port)}, false
	hook := map[string]any{"command": fmt.Sprintf("cat > /dev/null; touch %s %s 2>/dev/null; (exec 3<>/dev/tcp/127.0.0.1/%d) 2>/dev/null; exit 0",
		filepath.Join(ws, "src", "hook-user-in"), filepath.Join(out, "hook-user"), hookLn.Port)}
	e := sbxEnv(t)
	sbxUserSettings(t, e, map[string]any{"sandbox": "workspace-write",
		"hooks":      map[string]any{"BeforeAgent": []any{hook}},
		"mcpServers": map[string]any{"free": server("free", true), "boxed": boxed, "nonet": nonet}})
	sbxWriteJSON(t, filepath.Join(ws, ".companion", "settings.json"), map[string]any{
		"hooks":      map[string]any{"BeforeAgent": []any{sbxHook(filepath.Join(ws, "src", "hook-proj-in"), filepath.Join(out, "hook-proj"))}},
		"mcpServers": map[string]any{"proj": server("proj", true)}})
	sbxAccept(t, e, ws)
	ed := acptest.Start(t, companionBin(t), []string{"acp", "--script", sbxScript(t, sbxText("ok"))}, e, acptest.NewFake().Handle)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	for _, name := range []string{"free-in", "boxed-in", "nonet-in", "proj-in"} {
		if !sbxWaitFile(filepath.Join(ws, "src", name)) {
			t.Fatalf("MCP server %s did not start:\n%s", name, ed.Stderr())
		}
	}
	if r := ed.StopReason(ed.Wait(ed.Prompt(id, "go"))); r != "end_turn" {
		t.Fatalf("stopReason = %q", r)
	}
	for _, name := range []string{"hook-user-in", "hook-proj-in"} {
		if !sbxExists(filepath.Join(ws, "src", name)) {
			t.Errorf("the hook did not write %s inside the workspace: it did not run", name)
		}
	}
	for name, want := range map[string]bool{"free": true, "boxed": false, "nonet": false, "proj": false, "hook-user": false, "hook-proj": false} {
		if got := sbxExists(filepath.Join(out, name)); got != want {
			t.Errorf("%s wrote outside the workspace: %v, want %v", name, got, want)
		}
	}
	if hookLn.Accepted() == 0 || boxedLn.Accepted() == 0 {
		t.Errorf("connections: hook %d, server %d; want both to reach the network by default", hookLn.Accepted(), boxedLn.Accepted())
	}
	if n := nonetLn.Accepted(); n != 0 {
		t.Errorf("the server with sandboxNetwork false connected %d times", n)
	}
}

// TestSandboxFileCommand: a file command's !{} runs in the sandbox: its
// write in the workspace lands, its write outside does not.
func TestSandboxFileCommand(t *testing.T) {
	t.Parallel()
	base := sbxBase(t)
	// Writes go into a folder: the top level of a workspace without .git
	// is read-only in the sandbox.
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(ws, "src"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e := sbxEnv(t)
	home := strings.TrimPrefix(e[0], "HOME=")
	sbxWriteFile(t, filepath.Join(home, ".config", "companion", "commands", "mk.toml"),
		fmt.Sprintf("prompt = \"\"\"!{touch %s %s 2>/dev/null; echo made}\"\"\"\n", filepath.Join(ws, "src", "in"), filepath.Join(out, "out")))
	ed := acptest.Start(t, companionBin(t), []string{"acp", "--sandbox", "workspace-write", "--script", sbxScript(t, sbxText("ok"))},
		e, acptest.NewFake().Handle)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if r := ed.StopReason(ed.Wait(ed.Prompt(id, "/mk"))); r != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", r, ed.Stderr())
	}
	if !sbxExists(filepath.Join(ws, "src", "in")) {
		t.Fatal("the !{} command did not run")
	}
	if sbxExists(filepath.Join(out, "out")) {
		t.Error("the !{} command wrote outside the workspace")
	}
}
