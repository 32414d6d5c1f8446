package e2e

import (
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
	"companion/tools/sandbox"
)

// TestSandboxStatusCommand: /status is offered in available_commands and
// names the mode, the backend in use and the network, under each backend.
func TestSandboxStatusCommand(t *testing.T) {
	t.Parallel()
	for _, backend := range sandboxBackends {
		t.Run(backend, func(t *testing.T) {
			needBackend(t, backend)
			ws := workspace(t, nil)
			sc := script(t, `{"turns":[{"chunks":[{"text":"unused"}]}]}`)
			ed := acptest.Start(t, companionBin(t), []string{"acp", "--sandbox", "read-only", "--script", sc},
				env(t, sandbox.BackendEnv+"="+backend), acptest.NewFake().Handle)
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			if cmds := ed.WaitUpdate(id, "available_commands_update"); !strings.Contains(string(cmds.Raw), `"name":"status"`) {
				t.Errorf("available_commands lack status: %s", cmds.Raw)
			}
			ed.Wait(ed.Prompt(id, "/status"))
			var text string
			for _, u := range ed.Updates(id) {
				if u.Kind == "agent_message_chunk" {
					text += string(u.Raw)
				}
			}
			for _, want := range []string{"Sandbox: read-only, backend " + backend, "network blocked", "Approval mode: ", ws} {
				if !strings.Contains(text, want) {
					t.Errorf("/status lacks %q:\n%s", want, text)
				}
			}
		})
	}
}
