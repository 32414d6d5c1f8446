package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// TestHooks runs BeforeTool hooks, real commands: deny, ask, approve,
// replace the input, block by exit code 2, and a hook that times out
// (reported; the default policy decides).
func TestHooks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, hook string
		asked      int
		wantFile   string // content of out.txt afterwards ("" = absent)
		wantText   string // in the model's view of the result
	}{
		{"deny", `echo '{"decision":"deny","reason":"no writes today"}'`, 0, "", "no writes today"},
		{"ask", `echo '{"decision":"ask"}'`, 1, "v1\n", ""},
		{"allow", `echo '{"decision":"allow"}'`, 0, "v1\n", ""},
		{"modify input", `echo '{"decision":"allow","hookSpecificOutput":{"tool_input":{"file_path":"out.txt","content":"changed by hook"}}}'`, 0, "changed by hook", ""},
		{"block by exit code", `echo 'blocked by policy script' >&2; exit 2`, 0, "", "blocked by policy script"},
		{"timeout", `sleep 5`, 1, "v1\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := workspace(t, nil)
			hookFile := filepath.Join(t.TempDir(), "hook.sh")
			os.WriteFile(hookFile, []byte("#!/bin/sh\ncat > /dev/null\n"+tt.hook+"\n"), 0o755)
			// A hook that answers gets ten seconds, so a loaded machine
			// cannot turn its answer into a timeout; the one that sleeps
			// is cut off after 300 ms.
			timeout := 10000
			if tt.name == "timeout" {
				timeout = 300
			}
			settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{"BeforeTool": []any{
				map[string]any{"matcher": "write_file", "command": hookFile, "timeout": timeout}}}})
			fake := acptest.NewFake()
			ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"out.txt","content":"v1\n"}}}]},
				{"chunks":[{"text":"ok"}]}]}`, handler: fake.Handle, settings: string(settings)})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "write"))); got != "end_turn" {
				t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
			}
			if len(fake.Permissions) != tt.asked {
				t.Errorf("asked %d times, want %d", len(fake.Permissions), tt.asked)
			}
			data, err := os.ReadFile(filepath.Join(ws, "out.txt"))
			if got := string(data); (err != nil && tt.wantFile != "") || got != tt.wantFile {
				t.Errorf("out.txt = %q (%v), want %q", got, err, tt.wantFile)
			}
			var all string
			for _, u := range ed.Updates(id) {
				all += string(u.Raw)
			}
			if tt.wantText != "" && !strings.Contains(all, tt.wantText) {
				t.Errorf("updates lack %q", tt.wantText)
			}
			if tt.name == "timeout" && !strings.Contains(all, "hook failed") {
				t.Errorf("the timed-out hook was not reported")
			}
			ed.Close()
		})
	}
}

// TestHookTranscript: a hook gets transcript_path, the session's log, and
// the log already holds the prompt the tool call answers.
func TestHookTranscript(t *testing.T) {
	t.Parallel()
	ws, dir := workspace(t, nil), t.TempDir()
	hookFile, copied := filepath.Join(dir, "hook.sh"), filepath.Join(dir, "transcript.copy")
	script := "#!/bin/sh\np=$(sed -n 's/.*\"transcript_path\":\"\\([^\"]*\\)\".*/\\1/p')\ncp \"$p\" " + copied + "\necho '{}'\n"
	os.WriteFile(hookFile, []byte(script), 0o755)
	settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{"BeforeTool": []any{
		map[string]any{"matcher": "list_directory", "command": hookFile}}}})
	ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[{"functionCall":{"name":"list_directory","args":{"dir_path":"."}}}]},
		{"chunks":[{"text":"ok"}]}]}`, handler: acptest.NewFake().Handle, settings: string(settings)})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "PROMPT-IN-THE-TRANSCRIPT"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	data, err := os.ReadFile(copied)
	if err != nil || !strings.Contains(string(data), "PROMPT-IN-THE-TRANSCRIPT") || !strings.Contains(string(data), id) {
		t.Errorf("the hook's transcript (%v):\n%s", err, data)
	}
	ed.Close()
}
