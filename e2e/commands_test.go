package e2e

import (
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// TestFileCommands defines a project command using {{args}}, @{file} and
// !{command}, and checks the editor lists it and the model receives the
// expanded prompt (what @{} and !{} insert comes inside data frames); the
// !{} command goes through the permission policy.
func TestFileCommands(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{
		".companion/commands/git/summary.toml": "description = \"Summarise a file\"\nprompt = \"\"\"Summarise {{args}}.\nFile: @{notes.txt}\nShell: !{echo from-shell {{args}}}\"\"\"\n",
		"notes.txt":                            "the notes body",
	})
	fake := acptest.NewFake()
	srv := scriptedModel(t, `{"turns":[{"match":"Summarise notes please.","chunks":[{"text":"Summary done."}]}],"fallback":"error"}`)
	ed := startAgent(t, agentOpts{handler: fake.Handle, settings: fastRetries,
		env: env(t, "GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL="+srv.URL())})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	cmds := ed.WaitUpdate(id, "available_commands_update")
	if !strings.Contains(string(cmds.Raw), `"name":"git:summary"`) {
		t.Errorf("commands = %s", cmds.Raw)
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "/git:summary notes please"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	if len(fake.Permissions) != 1 || !strings.Contains(string(fake.Permissions[0].ToolCall.Content[0]), "from-shell") {
		t.Errorf("the !{} command was not asked about: %+v", fake.Permissions)
	}
	for source, want := range map[string]string{"file_command_file": "the notes body", "file_command_shell": "from-shell notes please"} {
		if reqs := srv.Requests(); len(reqs) != 1 || !sbxFramed(reqs, source, want) {
			t.Errorf("the model was not sent %q inside a %s data frame", want, source)
		}
	}
	ed.Close()
}
