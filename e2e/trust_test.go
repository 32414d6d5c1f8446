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

// trustWorkspace makes a workspace whose project settings (accepted by
// the user, so they grant powers when trusted) allow the edit and the
// command of trustTurns and run a BeforeTool hook that leaves HOOKED in
// marker. It returns the workspace, the environment and the marker.
func trustWorkspace(t *testing.T, userSettings string) (ws string, e []string, marker string) {
	t.Helper()
	marker = filepath.Join(t.TempDir(), "HOOKED")
	settings, _ := json.Marshal(map[string]any{
		"permissions": map[string]any{"allow": []string{"write_file", "run_shell_command(touch)"}},
		"hooks": map[string]any{"BeforeTool": []any{map[string]any{"matcher": ".*",
			"command": "cat > /dev/null; touch " + marker}}},
	})
	ws = workspace(t, map[string]string{".companion/settings.json": string(settings)})
	e = env(t)
	if userSettings != "" {
		e = withSettings(t, e, userSettings)
	}
	companion(t, e, "settings", "accept", ws)
	return ws, e, marker
}

// companion runs the binary with env and fails the test unless it
// succeeds: the real binary on purpose, for its command-line subcommands.
func companion(t *testing.T, e []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(companionBin(t), args...)
	cmd.Env = e
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("companion %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// trustTurns writes NEW.txt, then runs touch RAN.
const trustTurns = `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"NEW.txt","content":"x\n"}}}]},
	{"chunks":[{"functionCall":{"name":"run_shell_command","args":{"command":"touch RAN","description":"t"}}}]},
	{"chunks":[{"text":"done"}]}],"fallback":"error"}`

// modesOf lists the available mode ids in a session/new result.
func modesOf(t *testing.T, result json.RawMessage) []string {
	t.Helper()
	var r struct {
		Modes struct {
			AvailableModes []struct{ ID string } `json:"availableModes"`
		} `json:"modes"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range r.Modes.AvailableModes {
		ids = append(ids, m.ID)
	}
	return ids
}

// newSession opens a session on ws and returns its id and available modes.
func newSession(t *testing.T, ed *acptest.Editor, ws string) (string, []string) {
	t.Helper()
	m := ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}})
	if m.Error != nil {
		t.Fatalf("session/new: %v", m.Error)
	}
	var r struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(m.Result, &r)
	return r.SessionID, modesOf(t, m.Result)
}

// TestUntrustedEditorOverACP: after the editor says isTrusted:false, yolo
// and auto_edit are refused and not offered, the project's allow rules
// and hook are ignored, and the edit and the command both ask; rejected,
// they create nothing. The same workspace trusted runs both unasked.
func TestUntrustedEditorOverACP(t *testing.T) {
	t.Parallel()
	for _, untrusted := range []bool{false, true} {
		t.Run(map[bool]string{false: "trusted", true: "untrusted"}[untrusted], func(t *testing.T) {
			ws, e, marker := trustWorkspace(t, "")
			fake := acptest.NewFake()
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "reject_once", nil }
			ed := startAgent(t, agentOpts{script: trustTurns, handler: fake.Handle, env: e})
			ed.Initialize(map[string]any{})
			defer ed.Close()
			if untrusted {
				ed.NotifyUnchecked("_companion/ide/contextUpdate", map[string]any{"isTrusted": false})
			}
			id, modes := newSession(t, ed, ws)
			offered := strings.Contains(strings.Join(modes, ","), "yolo")
			if offered == untrusted {
				t.Errorf("available modes %v", modes)
			}
			if untrusted {
				refuseUnsafeModes(t, ed, id)
			}
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "go"))); got != "end_turn" {
				t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
			}
			checkTrustRun(t, ws, marker, untrusted, len(fake.Permissions))
			var all string
			for _, u := range ed.Updates(id) {
				all += string(u.Raw)
			}
			if told := strings.Count(all, "This workspace is not trusted"); told != map[bool]int{false: 0, true: 1}[untrusted] {
				t.Errorf("told %d times why the workspace is not trusted", told)
			}
		})
	}
}

// refuseUnsafeModes checks that session id refuses yolo through
// session/set_mode and auto_edit through session/set_config_option.
func refuseUnsafeModes(t *testing.T, ed *acptest.Editor, id string) {
	t.Helper()
	m := ed.Call("session/set_mode", map[string]any{"sessionId": id, "modeId": "yolo"})
	if m.Error == nil || !strings.Contains(m.Error.Message, "not trusted") {
		t.Errorf("set_mode yolo answered %s %v, want an error naming trust", m.Result, m.Error)
	}
	m = ed.Call("session/set_config_option", map[string]any{"sessionId": id, "configId": "mode", "value": "auto_edit"})
	if m.Error == nil || !strings.Contains(m.Error.Message, "not trusted") {
		t.Errorf("set_config_option auto_edit answered %s %v", m.Result, m.Error)
	}
}

// checkTrustRun checks what the trustTurns run left behind.
func checkTrustRun(t *testing.T, ws, marker string, untrusted bool, asked int) {
	t.Helper()
	_, hooked := os.Stat(marker)
	if untrusted {
		if asked != 2 {
			t.Errorf("asked %d times, want 2 (the edit and the command)", asked)
		}
		noFile(t, filepath.Join(ws, "NEW.txt"))
		noFile(t, filepath.Join(ws, "RAN"))
		if hooked == nil {
			t.Error("the project's hook ran in an untrusted workspace")
		}
		return
	}
	if asked != 0 || hooked != nil {
		t.Errorf("trusted: asked %d times, hook ran: %v; want the project settings applied", asked, hooked == nil)
	}
	for _, f := range []string{"NEW.txt", "RAN"} {
		if _, err := os.Stat(filepath.Join(ws, f)); err != nil {
			t.Errorf("trusted: %s missing", f)
		}
	}
}

// TestEditorDistrustsLiveSession: a session in yolo drops to default and
// says so when the editor then says isTrusted:false.
func TestEditorDistrustsLiveSession(t *testing.T) {
	t.Parallel()
	ws, e, _ := trustWorkspace(t, "")
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: trustTurns, handler: fake.Handle, env: e})
	ed.Initialize(map[string]any{})
	defer ed.Close()
	id, _ := newSession(t, ed, ws)
	if m := ed.Call("session/set_mode", map[string]any{"sessionId": id, "modeId": "yolo"}); m.Error != nil {
		t.Fatalf("set_mode yolo: %v", m.Error)
	}
	ed.NotifyUnchecked("_companion/ide/contextUpdate", map[string]any{"sessionId": id, "isTrusted": false})
	u := ed.WaitUpdate(id, "current_mode_update")
	if !strings.Contains(string(u.Raw), `"default"`) {
		t.Errorf("mode update = %s, want default", u.Raw)
	}
	// The config options follow, without yolo and auto_edit (an earlier
	// list, sent for set_mode yolo, had them).
	ed.WaitFor(func(m acptest.Msg) bool {
		return strings.Contains(string(m.Params), `"config_option_update"`) && strings.Contains(string(m.Params), `"currentValue":"default"`) &&
			!strings.Contains(string(m.Params), `"yolo"`) && !strings.Contains(string(m.Params), `"auto_edit"`)
	})
	if m := ed.Call("session/set_mode", map[string]any{"sessionId": id, "modeId": "auto_edit"}); m.Error == nil {
		t.Error("set_mode auto_edit accepted after the editor distrusted the workspace")
	}
}

// TestTrustCommandGrantsFolderTrust: with folderTrust on, an unlisted
// workspace is untrusted until `companion trust DIR`, and a stored trust
// never beats the editor's isTrusted:false.
func TestTrustCommandGrantsFolderTrust(t *testing.T) {
	t.Parallel()
	ws, e, _ := trustWorkspace(t, `{"folderTrust":{"enabled":true}}`)
	open := func(distrust bool) []string {
		ed := startAgent(t, agentOpts{script: trustTurns, handler: acptest.NewFake().Handle, env: e})
		ed.Initialize(map[string]any{})
		defer ed.Close()
		if distrust {
			ed.NotifyUnchecked("_companion/ide/contextUpdate", map[string]any{"isTrusted": false})
		}
		_, modes := newSession(t, ed, ws)
		return modes
	}
	if modes := open(false); strings.Contains(strings.Join(modes, ","), "yolo") {
		t.Fatalf("unlisted folder offers %v", modes)
	}
	if out := companion(t, e, "trust", ws); !strings.Contains(out, "trusted "+ws) {
		t.Fatalf("companion trust: %s", out)
	}
	if modes := open(false); !strings.Contains(strings.Join(modes, ","), "yolo") {
		t.Errorf("trusted folder offers %v", modes)
	}
	if modes := open(true); strings.Contains(strings.Join(modes, ","), "yolo") {
		t.Errorf("editor distrust lost to stored trust: %v", modes)
	}
}

// TestRunRefusesYoloUntrusted: `companion run --approval-mode yolo` in a
// folder folder trust does not list is refused with the reason, and runs
// once the folder is trusted.
func TestRunRefusesYoloUntrusted(t *testing.T) {
	t.Parallel()
	ws, e, _ := trustWorkspace(t, `{"folderTrust":{"enabled":true}}`)
	args := []string{"-p", "hi", "--approval-mode", "yolo", "--script", script(t, `{"turns":[{"chunks":[{"text":"done"}]}]}`)}
	o := runCompanion(t, runOpts{dir: ws, env: e, args: args})
	if o.Code == 0 || !strings.Contains(o.Stderr, "not trusted") {
		t.Fatalf("untrusted yolo run:\n%s", o)
	}
	companion(t, e, "trust", ws)
	if o := runCompanion(t, runOpts{dir: ws, env: e, args: args}); o.Code != 0 {
		t.Errorf("trusted yolo run:\n%s", o)
	}
}
