package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// TestIDEContextOverACP sends the editor context with the extension
// notification and checks the model receives it: in full on the first
// prompt, only the change on the next, nothing when nothing changed.
func TestIDEContextOverACP(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"main.go": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"})
	uri := "file://" + filepath.Join(ws, "main.go")
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: `{"turns":[
		{"match":"undefined: foo","chunks":[{"text":"I see main.go."}]},
		{"match":"selectedText changed","chunks":[{"text":"never"}]},
		{"match":"println","chunks":[{"text":"I see the selection."}]},
		{"chunks":[{"text":"fine"}]}],"fallback":"error"}`, handler: fake.Handle})
	init := ed.Initialize(map[string]any{})
	if !strings.Contains(string(init.Result), `"ideContext":true`) {
		t.Errorf("ideContext not advertised: %s", init.Result)
	}
	id := ed.NewSession(ws)
	ed.NotifyUnchecked("_companion/ide/contextUpdate", map[string]any{"sessionId": id,
		"workspaceFolders": []any{map[string]any{"uri": "file://" + ws, "name": "ws"}},
		"openFiles":        []any{map[string]any{"uri": uri, "isActive": true, "timestamp": 1, "cursor": map[string]any{"line": 2, "character": 0}}},
		"diagnostics": []any{map[string]any{"uri": uri, "diagnostics": []any{map[string]any{"severity": 1, "message": "undefined: foo",
			"range": map[string]any{"start": map[string]any{"line": 3, "character": 1}, "end": map[string]any{"line": 3, "character": 4}}}}}},
		"isTrusted": true})
	for i, want := range []string{"I see main.go.", "I see the selection.", "fine"} {
		if i == 1 {
			ed.NotifyUnchecked("_companion/ide/contextUpdate", map[string]any{
				"openFiles": []any{map[string]any{"uri": uri, "isActive": true, "timestamp": 2, "cursor": map[string]any{"line": 3, "character": 1},
					"selection":    map[string]any{"start": map[string]any{"line": 3, "character": 1}, "end": map[string]any{"line": 3, "character": 15}},
					"selectedText": "println(\"hi\")"}}})
		}
		before := len(ed.Updates(id))
		if got := ed.StopReason(ed.Wait(ed.Prompt(id, "what do I see?"))); got != "end_turn" {
			t.Fatalf("prompt %d: %q\n%s", i, got, ed.Stderr())
		}
		var text string
		for _, u := range ed.Updates(id)[before:] {
			text += u.Text()
		}
		if !strings.Contains(text, want) {
			t.Errorf("prompt %d answered %q, want %q", i, text, want)
		}
	}
	ed.Close()
}
