package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// mmServer builds the test MCP server of testdata/mmserver (roots,
// sampling, a crash-twice mode) and returns its path.
func mmServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mmserver")
	out, err := exec.Command("go", "build", "-o", bin, "./testdata/mmserver").CombinedOutput()
	if err != nil {
		t.Fatalf("building mmserver: %v\n%s", err, out)
	}
	return bin
}

// mmSession opens a session in ws with the mm server (env: NAME=value
// pairs for it) and returns its id.
func mmSession(t *testing.T, ed *acptest.Editor, ws, bin string, env ...string) string {
	t.Helper()
	vars := []any{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		vars = append(vars, map[string]any{"name": k, "value": v})
	}
	m := ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{
		map[string]any{"name": "mm", "command": bin, "args": []string{}, "env": vars}}})
	if m.Error != nil {
		t.Fatalf("session/new: %v", m.Error)
	}
	return sessionID(m)
}

// mmPrompt sends text, checks the turn ended normally and returns the
// agent's answer.
func mmPrompt(t *testing.T, ed *acptest.Editor, id, text string) string {
	t.Helper()
	before := len(ed.Updates(id))
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, text))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	var answer string
	for _, u := range ed.Updates(id)[before:] {
		if u.Kind == "agent_message_chunk" {
			answer += u.Text()
		}
	}
	return answer
}

// mmCount counts the session/updates that mention s.
func mmCount(ed *acptest.Editor, s string) int {
	n := 0
	for _, m := range ed.Received() {
		if m.Method == "session/update" && strings.Contains(string(m.Params), s) {
			n++
		}
	}
	return n
}

// TestMCPRootsOverACP: a server that asks gets the session's root as a
// file:// URI; when the editor's trusted workspace folders add a root,
// the server is told and sees it.
func TestMCPRootsOverACP(t *testing.T) {
	t.Parallel()
	bin := mmServer(t)
	ws, other := workspace(t, nil), workspace(t, nil)
	ed := startAgent(t, agentOpts{binary: true, handler: acptest.NewFake().Handle, script: `{"turns":[
		{"chunks":[{"functionCall":{"name":"mcp_mm_roots","args":{}}}]},
		{"match":"changes=0\\nroot file://` + ws + `","chunks":[{"text":"ROOTS-ONE"}]},
		{"chunks":[{"functionCall":{"name":"mcp_mm_roots","args":{}}}]},
		{"match":"root file://` + other + `","chunks":[{"text":"ROOTS-TWO"}]}],"fallback":"error"}`})
	ed.Initialize(map[string]any{})
	id := mmSession(t, ed, ws, bin)
	if got := mmPrompt(t, ed, id, "which roots?"); !strings.Contains(got, "ROOTS-ONE") {
		t.Fatalf("first answer = %q: the server did not get the root", got)
	}
	ed.NotifyUnchecked("_companion/ide/contextUpdate", map[string]any{"sessionId": id,
		"workspaceFolders": []any{map[string]any{"uri": "file://" + ws, "name": "ws"}, map[string]any{"uri": "file://" + other, "name": "other"}},
		"isTrusted":        true})
	if got := mmPrompt(t, ed, id, "and now?"); !strings.Contains(got, "ROOTS-TWO") {
		t.Fatalf("second answer = %q: the server did not see the new root", got)
	}
	var result string
	for _, u := range ed.Updates(id) {
		if u.Kind == "tool_call_update" {
			result += string(u.Raw)
		}
	}
	if !strings.Contains(result, "changes=1") {
		t.Errorf("the server was not told once that the roots changed: %s", result)
	}
	ed.Close()
}

// TestMCPSamplingOverACP: a server's sampling request shows a card naming
// the server and the request; allowed, the scripted model's answer
// reaches the server (and its tool result the model); rejected, the
// server is told no and the model never sees the request.
func TestMCPSamplingOverACP(t *testing.T) {
	t.Parallel()
	bin := mmServer(t)
	tests := []struct {
		name, answer, script, want string
	}{
		{"allowed", "proceed_once", `{"turns":[
			{"chunks":[{"functionCall":{"name":"mcp_mm_sample","args":{"question":"What is the capital of France?"}}}]},
			{"match":"Answer in one word.","chunks":[{"text":"Paris"}]},
			{"match":"sampled: Paris","chunks":[{"text":"THE-SERVER-HEARD-PARIS"}]}],"fallback":"error"}`, "THE-SERVER-HEARD-PARIS"},
		{"rejected", "reject_once", `{"turns":[
			{"chunks":[{"functionCall":{"name":"mcp_mm_sample","args":{"question":"What is the capital of France?"}}}]},
			{"match":"the user did not allow it","chunks":[{"text":"THE-SERVER-WAS-REFUSED"}]}],"fallback":"error"}`, "THE-SERVER-WAS-REFUSED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := acptest.NewFake()
			fake.Answer = func(req acptest.PermissionRequest) (string, map[string]any) {
				if strings.Contains(req.ToolCall.Title, "Sampling by MCP server") {
					return tt.answer, nil
				}
				return "proceed_once", nil
			}
			ed := startAgent(t, agentOpts{binary: true, handler: fake.Handle, script: tt.script})
			ed.Initialize(map[string]any{})
			id := mmSession(t, ed, workspace(t, nil), bin)
			if got := mmPrompt(t, ed, id, "ask the server"); !strings.Contains(got, tt.want) {
				t.Fatalf("answer = %q, want %q\n%s", got, tt.want, ed.Stderr())
			}
			var card *acptest.PermissionRequest
			for i, p := range fake.Permissions {
				if strings.Contains(p.ToolCall.Title, "Sampling by MCP server") {
					card = &fake.Permissions[i]
				}
			}
			if card == nil || !strings.Contains(card.ToolCall.Title, "mm") {
				t.Fatalf("no sampling card naming the server: %+v", fake.Permissions)
			}
			content := ""
			for _, c := range card.ToolCall.Content {
				content += string(c)
			}
			var names []string
			for _, o := range card.Options {
				names = append(names, o.Name)
			}
			if !strings.Contains(content, "capital of France") || !strings.Contains(content, "Answer in one word.") ||
				!strings.Contains(content, "20 tokens") || strings.Join(names, "|") != "Allow this time|Allow mm to sample for this session|Reject" {
				t.Errorf("card content %s, options %q", content, names)
			}
			ed.Close()
		})
	}
}

// TestMCPRestartOverACP: a server that crashes on its first two starts is
// restarted (after 1 s, then 2 s) and its tools then work; the editor is
// told once that it failed and once that it is back, not once per crash.
func TestMCPRestartOverACP(t *testing.T) {
	t.Parallel()
	bin := mmServer(t)
	count := filepath.Join(t.TempDir(), "count")
	ed := startAgent(t, agentOpts{binary: true, handler: acptest.NewFake().Handle, script: `{"turns":[
		{"chunks":[{"functionCall":{"name":"mcp_mm_echo","args":{"text":"still here"}}}]},
		{"match":"echo: still here","chunks":[{"text":"THE-SERVER-IS-BACK"}]}],"fallback":"error"}`})
	ed.Initialize(map[string]any{})
	id := mmSession(t, ed, workspace(t, nil), bin, "MM_COUNT="+count)
	ed.WaitFor(func(m acptest.Msg) bool {
		return m.Method == "session/update" && strings.Contains(string(m.Params), "MCP server mm is back")
	})
	if got := mmPrompt(t, ed, id, "echo"); !strings.Contains(got, "THE-SERVER-IS-BACK") {
		t.Fatalf("answer = %q: the restarted server's tool did not work", got)
	}
	if down, back := mmCount(ed, "MCP server mm failed"), mmCount(ed, "MCP server mm is back"); down != 1 || back != 1 {
		t.Errorf("%d failure and %d back notices, want one each", down, back)
	}
	ed.Close()
}

// TestMCPSamplingInRun: `companion run` cannot ask, so a server's
// sampling request is refused unless the user's settings allow it for
// that server; then the model's answer reaches the server.
func TestMCPSamplingInRun(t *testing.T) {
	t.Parallel()
	bin := mmServer(t)
	tests := []struct {
		name, sampling, script, want string
	}{
		{"refused without the setting", "", `{"turns":[
			{"chunks":[{"functionCall":{"name":"mcp_mm_sample","args":{"question":"What is the capital of France?"}}}]},
			{"match":"a headless run cannot ask","chunks":[{"text":"RUN-REFUSED-SAMPLING"}]}],"fallback":"error"}`, "RUN-REFUSED-SAMPLING"},
		{"allowed by the user's settings", "allow", `{"turns":[
			{"chunks":[{"functionCall":{"name":"mcp_mm_sample","args":{"question":"What is the capital of France?"}}}]},
			{"match":"Answer in one word.","chunks":[{"text":"Paris"}]},
			{"match":"sampled: Paris","chunks":[{"text":"RUN-SAMPLED-PARIS"}]}],"fallback":"error"}`, "RUN-SAMPLED-PARIS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			settings := `{"mcpServers":{"mm":{"command":"` + bin + `","trust":true,"sampling":"` + tt.sampling + `"}}}`
			if tt.sampling == "" {
				settings = `{"mcpServers":{"mm":{"command":"` + bin + `","trust":true}}}`
			}
			o := runCompanion(t, runOpts{env: withSettings(t, env(t), settings),
				args: []string{"-p", "ask the server", "--script", script(t, tt.script)}})
			if !strings.Contains(o.Stdout, tt.want) {
				t.Errorf("stdout = %q, want %q\nstderr: %s", o.Stdout, tt.want, o.Stderr)
			}
		})
	}
}

// TestMCPTrustNeedsTrustedWorkspace: "trust": true in the user's settings
// spares the server's tools the permission card in a trusted workspace
// only; in an untrusted one they ask like any other.
func TestMCPTrustNeedsTrustedWorkspace(t *testing.T) {
	t.Parallel()
	bin := mmServer(t)
	tests := []struct {
		name, settings string
		cards          int
	}{
		{"trusted workspace", `{"mcpServers":{"mm":{"command":"` + bin + `","trust":true}}}`, 0},
		{"untrusted workspace", `{"folderTrust":{"enabled":true},"mcpServers":{"mm":{"command":"` + bin + `","trust":true}}}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := acptest.NewFake()
			ed := startAgent(t, agentOpts{binary: true, handler: fake.Handle, settings: tt.settings, script: `{"turns":[
				{"chunks":[{"functionCall":{"name":"mcp_mm_echo","args":{"text":"hi"}}}]},
				{"match":"echo: hi","chunks":[{"text":"ECHOED"}]}],"fallback":"error"}`})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(workspace(t, nil))
			if got := mmPrompt(t, ed, id, "echo"); !strings.Contains(got, "ECHOED") {
				t.Fatalf("answer = %q\n%s", got, ed.Stderr())
			}
			if len(fake.Permissions) != tt.cards {
				t.Errorf("%d permission cards, want %d: %+v", len(fake.Permissions), tt.cards, fake.Permissions)
			}
			ed.Close()
		})
	}
}
