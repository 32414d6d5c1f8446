package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// TestEveryTool calls each built-in tool once,
// with an editor that offers fs and terminals and with a bare client, and
// checks each call completes (and what it changed).
func TestEveryTool(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "plain page text")
	}))
	defer page.Close()
	calls := []struct{ name, args string }{
		{"read_file", `{"file_path":"src/main.go"}`},
		{"list_directory", `{"dir_path":"src"}`},
		{"glob", `{"pattern":"**/*.go"}`},
		{"grep", `{"pattern":"func main"}`},
		{"read_many_files", `{"paths":["src/*.go"]}`},
		{"replace", `{"file_path":"src/main.go","old_string":"func main() {}","new_string":"func main() { run() }"}`},
		{"write_file", `{"file_path":"notes/new.md","content":"# New\n"}`},
		{"run_shell_command", `{"command":"echo shell-ran > shell.txt","description":"write a file"}`},
		{"run_shell_command", `{"command":"sleep 30","description":"background sleeper","is_background":true}`},
		{"list_background_processes", `{}`},
		{"read_background_output", `{"id":"bg1"}`},
		{"kill_background_process", `{"id":"bg1"}`},
		{"web_fetch", fmt.Sprintf(`{"url":%q}`, page.URL)},
		{"write_todos", `{"todos":[{"description":"check every tool","status":"in_progress"}]}`},
		{"save_memory", `{"fact":"The user likes tests."}`},
	}
	var turns []string
	for _, c := range calls {
		turns = append(turns, fmt.Sprintf(`{"chunks":[{"functionCall":{"name":%q,"args":%s}}]}`, c.name, c.args))
	}
	turns = append(turns, `{"chunks":[{"text":"all done"}]}`)
	sc := `{"turns":[` + strings.Join(turns, ",") + `],"fallback":"error"}`
	for name, caps := range clientCaps() {
		t.Run(name, func(t *testing.T) {
			ws := workspace(t, map[string]string{"src/main.go": "package main\n\nfunc main() {}\n"})
			fake := acptest.NewFake()
			ed := startAgent(t, agentOpts{script: sc, handler: fake.Handle,
				settings: `{"allowPrivateFetch":true,"permissions":{"allow":["*"]}}`})
			ed.Initialize(caps)
			id := ed.NewSession(ws)
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "use every tool"))); got != "end_turn" {
				t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
			}
			final := map[string]string{}
			names := map[string]string{}
			for _, u := range ed.Updates(id) {
				var f struct {
					ToolCallID string `json:"toolCallId"`
					Name       string `json:"name"`
					Status     string `json:"status"`
				}
				json.Unmarshal(u.Raw, &f)
				if f.Name != "" {
					names[f.ToolCallID] = f.Name
				}
				if f.Status != "" {
					final[f.ToolCallID] = f.Status + " " + string(u.Raw)
				}
			}
			if len(final) != len(calls) {
				t.Errorf("%d tool calls reported, want %d", len(final), len(calls))
			}
			for callID, st := range final {
				if !strings.HasPrefix(st, "completed") {
					t.Errorf("%s (%s) ended %.300s", names[callID], callID, st)
				}
			}
			for file, want := range map[string]string{"src/main.go": "func main() { run() }", "notes/new.md": "# New", "shell.txt": "shell-ran"} {
				data, _ := os.ReadFile(filepath.Join(ws, file))
				if !strings.Contains(string(data), want) {
					t.Errorf("%s = %q, want %q in it", file, data, want)
				}
			}
			ed.Close()
		})
	}
}
