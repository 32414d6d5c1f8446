package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// comparable updates: what the user sees, without the parts that are not
// replayed (the command list is sent fresh; user chunks are replay-only).
func replayable(us []acptest.Update) []string {
	var out []string
	for _, u := range us {
		if u.Kind == "available_commands_update" || u.Kind == "user_message_chunk" {
			continue
		}
		out = append(out, string(u.Raw))
	}
	return out
}

// TestLoadReplaysWhatWasSent runs a session with a tool call, restarts
// companion, loads the session and compares the replay with the live
// updates; then prompts the loaded session again.
func TestLoadReplaysWhatWasSent(t *testing.T) {
	t.Parallel()
	e := env(t)
	ws := workspace(t, map[string]string{"notes.txt": "remember the milk\n"})
	sc := `{"turns":[
		{"chunks":[{"thought":"Reading."},{"text":"Let me read it."},{"functionCall":{"name":"read_file","args":{"file_path":"notes.txt"}}}]},
		{"chunks":[{"functionCall":{"name":"write_todos","args":{"todos":[{"description":"Buy milk","status":"pending"}]}}}]},
		{"chunks":[{"text":"It says: remember the milk."}]},
		{"match":"and now?","chunks":[{"text":"Still the milk."}]}],"fallback":"error"}`
	first := startAgent(t, agentOpts{script: sc, env: e})
	first.Initialize(map[string]any{})
	id := first.NewSession(ws)
	if got := first.StopReason(first.Wait(first.Prompt(id, "What do my notes say?"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	live := replayable(first.Updates(id))
	first.Close()

	second := startAgent(t, agentOpts{script: sc, env: e})
	init := second.Initialize(map[string]any{})
	if !strings.Contains(string(init.Result), `"loadSession":true`) {
		t.Errorf("loadSession not advertised: %s", init.Result)
	}
	list := second.Call("session/list", map[string]any{"cwd": ws})
	if !strings.Contains(string(list.Result), id) || !strings.Contains(string(list.Result), "What do my notes say?") {
		t.Errorf("session/list = %s", list.Result)
	}
	load := second.Call("session/load", map[string]any{"sessionId": id, "cwd": ws, "mcpServers": []any{}})
	if load.Error != nil {
		t.Fatalf("session/load: %v", load.Error)
	}
	replayed := second.Updates(id)
	if replayed[0].Kind != "user_message_chunk" || replayed[0].Text() != "What do my notes say?" {
		t.Errorf("replay starts with %s", replayed[0].Raw)
	}
	if got := replayable(replayed); !slices.Equal(got, live) {
		t.Errorf("replay differs from live (%d vs %d):\nlive:\n%s\nreplay:\n%s", len(live), len(got), strings.Join(live, "\n"), strings.Join(got, "\n"))
	}
	if got := second.StopReason(second.Wait(second.Prompt(id, "and now?"))); got != "end_turn" {
		t.Fatalf("prompt after load: %q", got)
	}
	if d := second.Call("session/delete", map[string]any{"sessionId": id}); d.Error != nil {
		t.Fatalf("delete: %v", d.Error)
	}
	after := second.Call("session/list", map[string]any{})
	if strings.Contains(string(after.Result), id) {
		t.Errorf("deleted session still listed: %s", after.Result)
	}
	second.Close()
}

// TestLoadAfterKill kills companion mid-turn (a tool call waiting on the
// editor) and loads the session in a new process: what was sent before
// the kill is replayed and the unfinished call is sealed as failed.
func TestLoadAfterKill(t *testing.T) {
	t.Parallel()
	e := env(t)
	ws := workspace(t, map[string]string{"a.txt": "a\n"})
	sc := `{"turns":[{"chunks":[{"text":"Reading a.txt."},{"functionCall":{"name":"read_file","args":{"file_path":"a.txt"}}}]},
		{"chunks":[{"text":"Back again."}]}]}`
	block := make(chan struct{})
	defer close(block)
	// The real binary on purpose: the kill must be a crash (SIGKILL), not a cancelled turn.
	first := startAgent(t, agentOpts{binary: true, script: sc, env: e, handler: func(string, json.RawMessage) (any, *acptest.RPCError) {
		<-block
		return nil, &acptest.RPCError{Code: -32603, Message: "gone"}
	}})
	first.Initialize(map[string]any{"fs": map[string]any{"readTextFile": true}})
	id := first.NewSession(ws)
	first.Prompt(id, "read a")
	first.WaitFor(func(m acptest.Msg) bool { return m.Method == "fs/read_text_file" })
	live := replayable(first.Updates(id))
	first.Kill()

	second := startAgent(t, agentOpts{binary: true, script: sc, env: e}) // the new process after the crash
	second.Initialize(map[string]any{})
	if load := second.Call("session/load", map[string]any{"sessionId": id, "cwd": ws, "mcpServers": []any{}}); load.Error != nil {
		t.Fatalf("session/load: %v", load.Error)
	}
	got := replayable(second.Updates(id))
	if len(got) != len(live)+1 || !slices.Equal(got[:len(live)], live) {
		t.Fatalf("replay after kill:\n%s\nwant live then a seal:\n%s", strings.Join(got, "\n"), strings.Join(live, "\n"))
	}
	if last := got[len(got)-1]; !strings.Contains(last, `"status":"failed"`) || !strings.Contains(last, "Interrupted") {
		t.Errorf("unfinished call not sealed: %s", last)
	}
	if r := second.StopReason(second.Wait(second.Prompt(id, "again"))); r != "end_turn" {
		t.Errorf("prompt after load: %q", r)
	}
	second.Close()
}

func TestLoadUnknownSession(t *testing.T) {
	t.Parallel()
	ed := inProcess(t, `{"turns":[]}`, nil)
	ed.Initialize(map[string]any{})
	m := ed.Call("session/load", map[string]any{"sessionId": "sess_nope", "cwd": workspace(t, nil), "mcpServers": []any{}})
	if m.Error == nil || m.Error.Code != -32002 {
		t.Errorf("load unknown = %+v", m.Error)
	}
	if bad := ed.Call("session/list", map[string]any{"cursor": "!!"}); bad.Error == nil || bad.Error.Code != -32602 {
		t.Errorf("bad cursor = %+v", bad.Error)
	}
	ed.Close()
}

// TestProjectSettings checks a trusted project's settings choose the model
// and add permission rules.
func TestProjectSettings(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{".companion/settings.json": `{"model":"project-model","permissions":{"allow":["write_file"]}}`})
	e := env(t)
	// An allow rule applies once the user accepts the file (a subcommand: the real binary).
	accept := exec.Command(companionBin(t), "settings", "accept", ws)
	accept.Env = e
	if out, err := accept.CombinedOutput(); err != nil {
		t.Fatalf("companion settings accept: %v\n%s", err, out)
	}
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"x.txt","content":"x"}}}]},{"chunks":[{"text":"ok"}]}]}`,
		handler: fake.Handle, env: e})
	ed.Initialize(map[string]any{})
	m := ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}})
	if !strings.Contains(string(m.Result), `"currentValue":"project-model"`) {
		t.Errorf("session/new = %s", m.Result)
	}
	var r struct{ SessionID string }
	json.Unmarshal(m.Result, &r)
	ed.StopReason(ed.Wait(ed.Prompt(r.SessionID, "write")))
	if len(fake.Permissions) != 0 {
		t.Errorf("project allow rule ignored: asked %d times", len(fake.Permissions))
	}
	ed.Close()
}

// TestPendingSettingsNameTheirFiles: settings held back until accepted
// are named by the files they came from (Gemini CLI's and Claude Code's
// project files, not companion's, which does not exist), in the session's
// notice, in /accept-settings' answer and in `companion settings accept`.
func TestPendingSettingsNameTheirFiles(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{
		".gemini/settings.json": `{"mcpServers":{"g":{"command":"true"}}}`,
		".mcp.json":             `{"mcpServers":{"c":{"command":"true"}}}`,
	})
	both := filepath.Join(ws, ".gemini", "settings.json") + " and " + filepath.Join(ws, ".mcp.json")
	ed := startAgent(t, agentOpts{script: `{"turns":[],"fallback":"echo"}`})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	notice := sayText(t, ed, id, "hi")
	if !strings.Contains(notice, "The project settings in "+both+" are new or changed") {
		t.Errorf("the notice does not name both files:\n%s", notice)
	}
	if got := sayText(t, ed, id, "/accept-settings"); !strings.Contains(got, "Accepted "+both+".") {
		t.Errorf("/accept-settings = %q", got)
	}
	e := env(t)
	accept := exec.Command(companionBin(t), "settings", "accept", ws)
	accept.Env = e
	if out, err := accept.CombinedOutput(); err != nil || !strings.Contains(string(out), "accepted "+both) {
		t.Errorf("companion settings accept: %v\n%s", err, out)
	}
}
