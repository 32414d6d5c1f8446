package e2e

import (
	"strings"
	"testing"

	"companion/internal/acptest"
)

// TestFileCommands defines a project command using {{args}}, @{file} and
// !{command}, and checks the editor lists it and the model receives the
// expanded prompt; the !{} command goes through the permission policy.
func TestFileCommands(t *testing.T) {
	ws := workspace(t, map[string]string{
		".companion/commands/git/summary.toml": "description = \"Summarise a file\"\nprompt = \"\"\"Summarise {{args}}.\nFile: @{notes.txt}\nShell: !{echo from-shell {{args}}}\"\"\"\n",
		"notes.txt":                            "the notes body",
	})
	fake := acptest.NewFake()
	ed := startFake(t, `{"turns":[{"match":"Summarise notes please.\\nFile: the notes body\\nShell: from-shell notes please","chunks":[{"text":"Summary done."}]}],"fallback":"error"}`, fake, fastRetries)
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
	ed.Close()
}
