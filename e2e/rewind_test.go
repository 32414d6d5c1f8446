package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// rwScript has the model write f.txt as v1 for the first prompt and as v2
// for the second.
const rwScript = `{"turns":[
	{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"f.txt","content":"v1\n"}}}]},
	{"chunks":[{"text":"first done"}]},
	{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"f.txt","content":"v2\n"}}}]},
	{"chunks":[{"text":"second done"}]}]}`

// rwFile reads name in ws, "<absent>" when it does not exist.
func rwFile(ws, name string) string {
	data, err := os.ReadFile(filepath.Join(ws, name))
	if err != nil {
		return "<absent>"
	}
	return string(data)
}

// rwLoad loads session id and returns the user messages its replay shows.
func rwLoad(t *testing.T, ed *acptest.Editor, id, ws string) []string {
	t.Helper()
	before := len(ed.Updates(id))
	if m := ed.Call("session/load", map[string]any{"sessionId": id, "cwd": ws, "mcpServers": []any{}}); m.Error != nil {
		t.Fatalf("session/load %s: %s", id, m.Error)
	}
	var users []string
	for _, u := range ed.Updates(id)[before:] {
		if u.Kind == "user_message_chunk" {
			users = append(users, u.Text())
		}
	}
	return users
}

// rwResult is _companion/session/rewind's result.
type rwResult struct {
	SessionID string `json:"sessionId"`
	Prompt    []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"prompt"`
	Restored []string `json:"restored"`
}

// TestRewindThroughACP: two prompts edit f.txt; the editor rewinds to
// before the second one. The files are as after the first, the new
// session loads with one user message, the original still with two; a
// fork copies the whole conversation; /rewind 0 puts the original back.
func TestRewindThroughACP(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"f.txt": "v0\n"})
	ed := startAgent(t, agentOpts{script: rwScript, handler: acptest.NewFake().Handle,
		settings: `{"permissions":{"allow":["edit"]}}`})
	init := ed.Initialize(map[string]any{})
	if !strings.Contains(string(init.Result), `"rewind":true`) || !strings.Contains(string(init.Result), `"fork":true`) {
		t.Errorf("rewind and fork not advertised: %s", init.Result)
	}
	id := ed.NewSession(ws)
	sayText(t, ed, id, "first edit")
	sayText(t, ed, id, "second edit")
	if got := rwFile(ws, "f.txt"); got != "v2\n" {
		t.Fatalf("after two edits f.txt = %q", got)
	}
	m := ed.Call("_companion/session/rewind", map[string]any{"sessionId": id, "prompt": 1, "restoreFiles": true})
	if m.Error != nil {
		t.Fatalf("rewind: %s", m.Error)
	}
	var r rwResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		t.Fatal(err)
	}
	if r.SessionID == "" || r.SessionID == id || len(r.Prompt) != 1 || r.Prompt[0].Type != "text" || r.Prompt[0].Text != "second edit" {
		t.Errorf("rewind result = %s", m.Result)
	}
	if !slices.Contains(r.Restored, filepath.Join(ws, "f.txt")) {
		t.Errorf("restored = %q, want f.txt", r.Restored)
	}
	if got := rwFile(ws, "f.txt"); got != "v1\n" {
		t.Errorf("after the rewind f.txt = %q, want v1 (as after the first prompt)", got)
	}
	if got := rwLoad(t, ed, r.SessionID, ws); strings.Join(got, "|") != "first edit" {
		t.Errorf("the rewound session replays %q, want the first prompt only", got)
	}
	if got := rwLoad(t, ed, id, ws); strings.Join(got, "|") != "first edit|second edit" {
		t.Errorf("the original replays %q, want both prompts", got)
	}
	f := ed.Call("_companion/session/fork", map[string]any{"sessionId": id})
	var fork struct {
		SessionID string `json:"sessionId"`
	}
	if f.Error != nil || json.Unmarshal(f.Result, &fork) != nil || fork.SessionID == "" {
		t.Fatalf("fork: %s %s", f.Result, f.Error)
	}
	if got := rwLoad(t, ed, fork.SessionID, ws); len(got) != 2 {
		t.Errorf("the fork replays %q, want both prompts", got)
	}
	if out := sayText(t, ed, id, "/rewind 0"); !strings.Contains(out, "Rewound") {
		t.Errorf("/rewind 0 said %q", out)
	}
	if got := rwFile(ws, "f.txt"); got != "v0\n" {
		t.Errorf("after /rewind 0 f.txt = %q, want the original v0", got)
	}
	ed.Close()
}

// TestRewindRefusals: unknown sessions and prompts out of range are
// invalid params.
func TestRewindRefusals(t *testing.T) {
	t.Parallel()
	ws := workspace(t, nil)
	ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[{"text":"hi"}]}]}`, handler: acptest.NewFake().Handle})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	sayText(t, ed, id, "hello")
	for _, params := range []map[string]any{
		{"sessionId": id, "prompt": 1, "restoreFiles": true},
		{"sessionId": id, "prompt": -1, "restoreFiles": false},
		{"sessionId": id},
		{"sessionId": "sess_nope", "prompt": 0, "restoreFiles": true},
	} {
		m := ed.Call("_companion/session/rewind", params)
		if m.Error == nil || m.Error.Code != -32602 || m.Error.Message == "" {
			t.Errorf("rewind %v: %s %s, want -32602", params, m.Result, m.Error)
		}
	}
	if m := ed.Call("_companion/session/fork", map[string]any{"sessionId": "sess_nope"}); m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("fork of an unknown session: %s %s, want -32602", m.Result, m.Error)
	}
	ed.Close()
}

// TestRewindHeadless: `companion run` edits f.txt, then a resumed run
// with /rewind 0 puts it back.
func TestRewindHeadless(t *testing.T) {
	t.Parallel()
	e := env(t)
	ws := workspace(t, map[string]string{"f.txt": "v0\n"})
	first := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "edit it", "--output-format", "json",
		"--approval-mode", "yolo", "--script", script(t, rwScript)}})
	if first.Code != 0 || rwFile(ws, "f.txt") != "v1\n" {
		t.Fatalf("first run (f.txt %q):\n%s", rwFile(ws, "f.txt"), first)
	}
	id := jsonResult(t, first).SessionID
	second := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "/rewind 0", "--output-format", "json",
		"--resume", id, "--script", script(t, `{"turns":[]}`)}})
	if second.Code != 0 || !strings.Contains(jsonResult(t, second).Result, "Rewound") {
		t.Fatalf("rewind run:\n%s", second)
	}
	if got := rwFile(ws, "f.txt"); got != "v0\n" {
		t.Errorf("after /rewind 0 f.txt = %q, want v0", got)
	}
}

// TestRewindBusy: while a turn waits for a permission answer, rewinding
// or forking its session is refused as busy; after the turn it works.
func TestRewindBusy(t *testing.T) {
	t.Parallel()
	ws := workspace(t, nil)
	asked, release := make(chan struct{}), make(chan struct{})
	fake := acptest.NewFake()
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) {
		close(asked)
		<-release
		return "proceed_once", nil
	}
	ed := startAgent(t, agentOpts{script: rwScript, handler: fake.Handle})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	turn := ed.Prompt(id, "first edit")
	<-asked
	for _, method := range []string{"_companion/session/rewind", "_companion/session/fork"} {
		m := ed.Call(method, map[string]any{"sessionId": id, "prompt": 0, "restoreFiles": true})
		if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, "busy") {
			t.Errorf("%s during a turn: %s %v, want -32602 busy", method, m.Result, m.Error)
		}
	}
	close(release)
	if got := ed.StopReason(ed.Wait(turn)); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	if m := ed.Call("_companion/session/rewind", map[string]any{"sessionId": id, "prompt": 0, "restoreFiles": true}); m.Error != nil {
		t.Errorf("rewind after the turn: %v", m.Error)
	}
	if got := rwFile(ws, "f.txt"); got != "<absent>" {
		t.Errorf("after rewinding the edit that created f.txt, f.txt = %q, want it gone", got)
	}
	ed.Close()
}
