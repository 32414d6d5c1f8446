package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"companion/internal/testkit/acptest"
)

// TestEditorRefuses is issue 16's "the editor decides what it answered":
// an editor that advertises fs and answers fs/read_text_file or
// fs/write_text_file with an error makes the tool fail with that error.
// Nothing falls back to the disk: the file's content, which is on disk,
// never reaches the model or the editor, and the file is never written.
func TestEditorRefuses(t *testing.T) {
	t.Parallel()
	const secret = "TOP-SECRET-CONTENT-7391"
	const refusal = "refused by the editor's policy"
	tests := []struct {
		name   string
		method string // the fs method the editor refuses
		call   string
	}{
		{"read_file", "fs/read_text_file", modelCall("read_file", map[string]any{"file_path": "secret.txt"})},
		{"replace, read refused", "fs/read_text_file",
			modelCall("replace", map[string]any{"file_path": "secret.txt", "old_string": "CONTENT", "new_string": "X"})},
		{"write_file, write refused", "fs/write_text_file",
			modelCall("write_file", map[string]any{"file_path": "secret.txt", "content": "PWNED\n"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := workspace(t, map[string]string{"secret.txt": secret + "\n"})
			fake := acptest.NewFake()
			var refused atomic.Int32
			handler := func(method string, params json.RawMessage) (any, *acptest.RPCError) {
				if method == tt.method {
					refused.Add(1)
					return nil, &acptest.RPCError{Code: -32000, Message: refusal}
				}
				return fake.Handle(method, params)
			}
			// The turn that matches the secret comes first, so a request
			// that carries it is answered "LEAKED" rather than "done".
			s := `{"turns":[{"chunks":[` + tt.call + `]},
				{"match":"` + secret + `","chunks":[{"text":"LEAKED"}]},
				{"match":"functionResponse","chunks":[{"text":"done"}]}],"fallback":"error"}`
			ed := startAgent(t, agentOpts{script: s, handler: handler})
			ed.Initialize(map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}})
			id := ed.NewSession(ws)
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "work on secret.txt"))); got != "end_turn" {
				t.Fatalf("stopReason = %q", got)
			}
			if refused.Load() == 0 {
				t.Fatalf("the agent never called %s", tt.method)
			}
			if ups := toolUpdates(ed, id); !strings.Contains(ups, `"status":"failed"`) || !strings.Contains(ups, refusal) {
				t.Errorf("the tool did not fail with the editor's error:\n%s", ups)
			}
			if tt.method == "fs/read_text_file" {
				refuseCheckLeaks(t, ed, id, secret)
			}
			if got := readFile(t, filepath.Join(ws, "secret.txt")); got != secret+"\n" {
				t.Errorf("the file changed on disk: %q", got)
			}
			ed.Close()
		})
	}
}

// refuseCheckLeaks fails when the model's answer shows it received secret,
// or when a message to the editor carries it.
func refuseCheckLeaks(t *testing.T, ed *acptest.Editor, id, secret string) {
	t.Helper()
	var text strings.Builder
	for _, u := range ed.Updates(id) {
		text.WriteString(u.Text())
	}
	if got := text.String(); got != "done" {
		t.Errorf("model's answer = %q, want %q (LEAKED: the file reached the model)", got, "done")
	}
	for _, m := range ed.Received() {
		if b, _ := json.Marshal(m); strings.Contains(string(b), secret) {
			t.Errorf("the file's content reached the editor: %s", b)
		}
	}
}
