package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// clientCaps are the two kinds of editor the tool tests run against.
func clientCaps() map[string]map[string]any {
	return map[string]map[string]any{
		"editor with fs and terminals": {"fs": map[string]any{"readTextFile": true, "writeTextFile": true}, "terminal": true},
		"bare client":                  {},
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestReplaceEverywhere(t *testing.T) {
	t.Parallel()
	for name, caps := range clientCaps() {
		t.Run(name, func(t *testing.T) {
			ws := workspace(t, map[string]string{"app.go": "package app\r\n\r\nfunc Old() {}\r\n"})
			fake := acptest.NewFake()
			rename := modelCall("replace", map[string]any{"file_path": "app.go", "old_string": "func Old() {}", "new_string": "func New() {}"})
			ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[` + rename + `]},
				{"match":"functionResponse","chunks":[{"text":"Renamed."}]}],"fallback":"error"}`, handler: fake.Handle})
			ed.Initialize(caps)
			id := ed.NewSession(ws)
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "rename Old"))); got != "end_turn" {
				t.Fatalf("stopReason = %q", got)
			}
			if got := readFile(t, filepath.Join(ws, "app.go")); got != "package app\r\n\r\nfunc New() {}\r\n" {
				t.Errorf("file = %q (CRLF must be kept)", got)
			}
			if len(fake.Permissions) != 1 {
				t.Fatalf("asked %d times, want 1", len(fake.Permissions))
			}
			perm := fake.Permissions[0]
			if perm.ToolCall.Kind != "edit" || len(perm.ToolCall.Content) == 0 || !strings.Contains(string(perm.ToolCall.Content[0]), `"type":"diff"`) {
				t.Errorf("permission toolCall = %+v", perm.ToolCall)
			}
			first := ed.Updates(id)
			var sawDiffBeforeAsk bool
			for _, u := range first {
				if u.Kind == "tool_call" && strings.Contains(string(u.Raw), `"newText":"package app\r\n\r\nfunc New() {}\r\n"`) {
					sawDiffBeforeAsk = true
				}
			}
			if !sawDiffBeforeAsk {
				t.Errorf("no tool_call with the whole-file diff before the question")
			}
			wantWrite := caps["fs"] != nil
			if got := strings.Contains(strings.Join(fake.Calls, " "), "fs/write_text_file"); got != wantWrite {
				t.Errorf("wrote through the editor = %v, want %v (calls %q)", got, wantWrite, fake.Calls)
			}
			ed.Close()
		})
	}
}

func TestPermissionAnswers(t *testing.T) {
	t.Parallel()
	modified := "user version\n"
	tests := []struct {
		name     string
		answers  []string // option ids in order; "" cancels
		meta     map[string]any
		wantFile string
		asked    int
	}{
		{"allow once twice", []string{"proceed_once", "proceed_once"}, nil, "v2\n", 2},
		{"allow always", []string{"proceed_always"}, nil, "v2\n", 1},
		{"reject", []string{"reject_once", "reject_once"}, nil, "v0\n", 2},
		{"reject always", []string{"reject_always"}, nil, "v0\n", 1},
		{"modified content", []string{"proceed_once", "proceed_once"}, map[string]any{"companion": map[string]any{"modifiedContent": modified}}, modified, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := workspace(t, map[string]string{"f.txt": "v0\n"})
			fake := acptest.NewFake()
			n := 0
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) {
				a := tt.answers[min(n, len(tt.answers)-1)]
				n++
				return a, tt.meta
			}
			write := func(s string) string {
				return modelCall("write_file", map[string]any{"file_path": "f.txt", "content": s})
			}
			ed := startAgent(t, agentOpts{handler: fake.Handle,
				script: `{"turns":[{"chunks":[` + write("v1\n") + `]},{"chunks":[` + write("v2\n") + `]},{"chunks":[{"text":"ok"}]}]}`})
			ed.Initialize(clientCaps()["editor with fs and terminals"])
			id := ed.NewSession(ws)
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "write"))); got != "end_turn" {
				t.Fatalf("stopReason = %q", got)
			}
			if got := readFile(t, filepath.Join(ws, "f.txt")); got != tt.wantFile {
				t.Errorf("file = %q, want %q", got, tt.wantFile)
			}
			if len(fake.Permissions) != tt.asked {
				t.Errorf("asked %d times, want %d", len(fake.Permissions), tt.asked)
			}
			ed.Close()
		})
	}
}

func TestCancelWhileAsking(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"f.txt": "v0\n"})
	fake := acptest.NewFake()
	asked := make(chan struct{}, 1)
	release := make(chan struct{})
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) {
		asked <- struct{}{}
		<-release
		return "", nil // the client answers cancelled after session/cancel
	}
	ed := startAgent(t, agentOpts{handler: fake.Handle,
		script: `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"f.txt","content":"v1\n"}}}]}]}`})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	resp := ed.Prompt(id, "write")
	<-asked
	ed.Notify("session/cancel", map[string]any{"sessionId": id})
	close(release)
	if got := ed.StopReason(ed.Wait(resp)); got != "cancelled" {
		t.Fatalf("stopReason = %q", got)
	}
	if got := readFile(t, filepath.Join(ws, "f.txt")); got != "v0\n" {
		t.Errorf("file changed after a cancelled question: %q", got)
	}
	ed.Close()
}

func TestPlanModeAndTodos(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"f.txt": "v0\n"})
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[
		{"functionCall":{"name":"write_todos","args":{"todos":[{"description":"Read the code","status":"completed"},{"description":"Fix the bug","status":"in_progress"}]}}},
		{"functionCall":{"name":"write_file","args":{"file_path":"f.txt","content":"v1\n"}}}]},
		{"match":"Plan mode is read-only","chunks":[{"text":"I will only plan."}]}],"fallback":"error"}`, handler: fake.Handle})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if r := ed.Call("session/set_mode", map[string]any{"sessionId": id, "modeId": "plan"}); r.Error != nil {
		t.Fatal(r.Error)
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "plan it"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	u := ed.WaitUpdate(id, "plan")
	if !strings.Contains(string(u.Raw), `"content":"Fix the bug","priority":"medium","status":"in_progress"`) {
		t.Errorf("plan = %s", u.Raw)
	}
	if len(fake.Permissions) != 0 || readFile(t, filepath.Join(ws, "f.txt")) != "v0\n" {
		t.Errorf("plan mode asked (%d) or wrote", len(fake.Permissions))
	}
	ed.Close()
}
