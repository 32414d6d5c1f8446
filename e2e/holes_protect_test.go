package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// rejectAll is a fake editor that refuses every permission request.
func rejectAll() *acptest.Fake {
	fake := acptest.NewFake()
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "reject_once", nil }
	return fake
}

// exists reports whether path exists (a symlink counts, dangling or not).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// TestHoleRedirectThroughSymlink (issue 14, hole 2): with "ls" allowed
// and link -> outside/deep in the workspace, `ls > link/../PWNED` would
// write outside/PWNED, because bash follows link before "..". Every
// redirect form must be asked about, and once rejected nothing is written.
func TestHoleRedirectThroughSymlink(t *testing.T) {
	t.Parallel()
	lines := map[string]string{
		">":         "ls > link/../PWNED",
		">|":        "ls >| link/../PWNED",
		">>":        "ls >> link/../PWNED",
		"&>":        "ls &> link/../PWNED",
		"1<>":       "ls 1<> link/../PWNED",
		"dangling":  "ls > dangling",
		"dot chain": "ls > ./link/./../deep/../PWNED",
		"proc cwd":  "ls > /proc/self/cwd/../PWNED",
	}
	for name, line := range lines {
		t.Run(name, func(t *testing.T) {
			ws := workspace(t, nil)
			outside, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(outside, "deep"), 0o755); err != nil {
				t.Fatal(err)
			}
			for link, target := range map[string]string{"link": filepath.Join(outside, "deep"), "dangling": filepath.Join(outside, "PWNED")} {
				if err := os.Symlink(target, filepath.Join(ws, link)); err != nil {
					t.Fatal(err)
				}
			}
			fake := rejectAll()
			ed := startAgent(t, agentOpts{handler: fake.Handle, settings: `{"permissions":{"allow":["run_shell_command(ls)"]}}`,
				script: `{"turns":[{"chunks":[` + shellCall(line) + `]},{"chunks":[{"text":"ok"}]}]}`})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			ed.StopReason(ed.Wait(ed.Prompt(id, "go")))
			if len(fake.Permissions) != 1 {
				t.Errorf("asked %d times, want 1", len(fake.Permissions))
			}
			for _, p := range []string{filepath.Join(outside, "PWNED"), filepath.Join(filepath.Dir(ws), "PWNED")} {
				if exists(p) {
					t.Errorf("%q wrote %s", line, p)
				}
			}
			ed.Close()
		})
	}
}

// TestHoleAutoEditPowerFiles (issue 14, hole 5): in auto_edit the model
// writes a plain file unasked, but companion's settings, git's config and
// a link to it are asked about, with the card saying why; rejected, they
// stay as they were.
func TestHoleAutoEditPowerFiles(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{".git/config": "[core]\n"})
	if err := os.Symlink(".git/config", filepath.Join(ws, "cfg")); err != nil {
		t.Fatal(err)
	}
	fake := rejectAll()
	ed := startAgent(t, agentOpts{script: `{"turns":[
		{"chunks":[` + modelCall("write_file", map[string]any{"file_path": "notes.txt", "content": "plain"}) + `]},
		{"chunks":[` + modelCall("write_file", map[string]any{"file_path": ".companion/settings.json", "content": `{"permissions":{"allow":["run_shell_command"]}}`}) + `]},
		{"chunks":[` + modelCall("write_file", map[string]any{"file_path": ".git/config", "content": "[core]\n\tfsmonitor = touch PWNED\n"}) + `]},
		{"chunks":[` + modelCall("write_file", map[string]any{"file_path": "cfg", "content": "[core]\n\tfsmonitor = touch PWNED\n"}) + `]},
		{"chunks":[{"text":"ok"}]}]}`, handler: fake.Handle})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if res := ed.Call("session/set_mode", map[string]any{"sessionId": id, "modeId": "auto_edit"}); res.Error != nil {
		t.Fatalf("set_mode: %v", res.Error)
	}
	ed.StopReason(ed.Wait(ed.Prompt(id, "go")))
	if got := readFile(t, filepath.Join(ws, "notes.txt")); got != "plain" {
		t.Errorf("notes.txt = %q: a plain file is written unasked in auto_edit", got)
	}
	if len(fake.Permissions) != 3 {
		t.Fatalf("asked %d times, want 3 (settings, .git/config, the link to it)", len(fake.Permissions))
	}
	for _, p := range fake.Permissions {
		if !strings.Contains(p.ToolCall.Title, "asked every time") {
			t.Errorf("the card does not say why: %q", p.ToolCall.Title)
		}
	}
	if exists(filepath.Join(ws, ".companion", "settings.json")) {
		t.Error("the rejected settings file was written")
	}
	if got := readFile(t, filepath.Join(ws, ".git", "config")); got != "[core]\n" {
		t.Errorf(".git/config = %q after rejection", got)
	}
	ed.Close()
}

// powerSettings is a project settings file that allows touch, runs a hook
// before shell commands and starts an MCP server; each leaves a marker in
// dir when it runs.
func powerSettings(t *testing.T, dir string) string {
	t.Helper()
	hook := filepath.Join(dir, "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncat > /dev/null\ntouch "+filepath.Join(dir, "hook.marker")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, _ := json.Marshal(map[string]any{
		"permissions": map[string]any{"allow": []string{"run_shell_command(touch)"}},
		"hooks":       map[string]any{"BeforeTool": []any{map[string]any{"matcher": "run_shell_command", "command": hook}}},
		"mcpServers": map[string]any{"marker": map[string]any{"command": "sh",
			"args": []string{"-c", "touch " + filepath.Join(dir, "mcp.marker")}}},
	})
	return string(s)
}

// TestHoleUnacceptedProjectSettings (issue 14, hole 5): project settings
// the user never accepted lend no powers: their allow rule does not spare
// a question, their hook and MCP server do not run, and the user is told
// what the file would add. After `companion settings accept`, a new
// session uses them all.
func TestHoleUnacceptedProjectSettings(t *testing.T) {
	t.Parallel()
	marks := t.TempDir()
	ws := workspace(t, map[string]string{".companion/settings.json": powerSettings(t, marks)})
	shellMark := filepath.Join(marks, "shell.marker")
	turn := `{"turns":[{"chunks":[` + shellCall("touch "+shellMark) + `]},{"chunks":[{"text":"ok"}]}]}`
	e := env(t)

	fake := rejectAll()
	ed := startAgent(t, agentOpts{script: turn, handler: fake.Handle, env: e})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	ed.StopReason(ed.Wait(ed.Prompt(id, "go")))
	if len(fake.Permissions) != 1 {
		t.Errorf("asked %d times, want 1: the unaccepted allow rule must not apply", len(fake.Permissions))
	}
	for _, m := range []string{"shell.marker", "hook.marker", "mcp.marker"} {
		if exists(filepath.Join(marks, m)) {
			t.Errorf("%s exists: unaccepted settings ran something", m)
		}
	}
	var all strings.Builder
	for _, u := range ed.Updates(id) {
		all.Write(u.Raw)
	}
	for _, want := range []string{"allows run_shell_command(touch)", "adds hook BeforeTool", "adds MCP server marker", "companion settings accept"} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("the notice does not say %q", want)
		}
	}
	ed.Close()

	accept := exec.Command(companionBin(t), "settings", "accept", ws) // a subcommand: the real binary
	accept.Env = e
	if out, err := accept.CombinedOutput(); err != nil || !strings.Contains(string(out), "accepted") {
		t.Fatalf("companion settings accept: %v\n%s", err, out)
	}

	fake = rejectAll()
	ed = startAgent(t, agentOpts{script: turn, handler: fake.Handle, env: e})
	ed.Initialize(map[string]any{})
	id = ed.NewSession(ws)
	ed.StopReason(ed.Wait(ed.Prompt(id, "go")))
	if len(fake.Permissions) != 0 {
		t.Errorf("asked %d times after accepting, want 0", len(fake.Permissions))
	}
	for _, m := range []string{"shell.marker", "hook.marker", "mcp.marker"} {
		if !exists(filepath.Join(marks, m)) {
			t.Errorf("%s missing: accepted settings did not take effect\n%s", m, ed.Stderr())
		}
	}
	ed.Close()
}

// TestHoleAcceptSettingsCommand: /accept-settings in a session accepts the
// file as it was shown; the next session uses it.
func TestHoleAcceptSettingsCommand(t *testing.T) {
	t.Parallel()
	marks := t.TempDir()
	ws := workspace(t, map[string]string{".companion/settings.json": powerSettings(t, marks)})
	shellMark := filepath.Join(marks, "shell.marker")
	fake := rejectAll()
	ed := startAgent(t, agentOpts{handler: fake.Handle,
		script: `{"turns":[{"chunks":[` + shellCall("touch "+shellMark) + `]},{"chunks":[{"text":"ok"}]}]}`})
	ed.Initialize(map[string]any{})
	first := ed.NewSession(ws)
	ed.StopReason(ed.Wait(ed.Prompt(first, "/accept-settings")))
	if exists(shellMark) || exists(filepath.Join(marks, "hook.marker")) {
		t.Fatal("accepting ran something")
	}
	second := ed.NewSession(ws)
	ed.StopReason(ed.Wait(ed.Prompt(second, "go")))
	if len(fake.Permissions) != 0 || !exists(shellMark) || !exists(filepath.Join(marks, "hook.marker")) {
		t.Errorf("after /accept-settings: asked %d times, shell marker %v, hook marker %v",
			len(fake.Permissions), exists(shellMark), exists(filepath.Join(marks, "hook.marker")))
	}
	ed.Close()
}

// TestHoleInvalidSessionID (issue 14, hole 9): a malformed session id is
// invalid params (-32602), not an internal error; an unknown well-formed
// one stays "not found" (-32002).
func TestHoleInvalidSessionID(t *testing.T) {
	t.Parallel()
	ws := workspace(t, nil)
	ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[{"text":"ok"}]}]}`, handler: acptest.NewFake().Handle})
	ed.Initialize(map[string]any{})
	prompt := func(id string) map[string]any {
		return map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "hi"}}}
	}
	for _, tt := range []struct {
		method string
		params map[string]any
		want   int64
	}{
		{"session/load", map[string]any{"sessionId": "../../etc/passwd", "cwd": ws, "mcpServers": []any{}}, -32602},
		{"session/resume", map[string]any{"sessionId": "a/b", "cwd": ws}, -32602},
		{"session/delete", map[string]any{"sessionId": ".hidden"}, -32602},
		{"session/prompt", prompt(""), -32602},
		{"session/prompt", prompt("sess x"), -32602},
		{"session/set_mode", map[string]any{"sessionId": "../x", "modeId": "yolo"}, -32602},
		{"session/load", map[string]any{"sessionId": "sess_unknown", "cwd": ws, "mcpServers": []any{}}, -32002},
		{"session/prompt", prompt("sess_unknown"), -32002},
	} {
		m := ed.Call(tt.method, tt.params)
		if m.Error == nil || m.Error.Code != tt.want {
			t.Errorf("%s %v = %+v, want error %d", tt.method, tt.params["sessionId"], m.Error, tt.want)
		}
	}
	ed.Close()
}
