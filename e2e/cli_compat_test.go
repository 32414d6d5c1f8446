package e2e

import (
	"strings"
	"testing"

	"companion/internal/acptest"
)

// TestCancelQuietStderr: cancelling a turn while the model streams
// prints no "Error context canceled" from the model library's standard
// logger on stderr (issue 29, item 7): its records go to companion's
// logger, at debug level.
func TestCancelQuietStderr(t *testing.T) {
	t.Parallel()
	ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[{"text":"Starting"}],"hang":true}]}`,
		handler: acptest.NewFake().Handle, binary: true}) // the binary: its standard logger is the one routed
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	resp := ed.Prompt(id, "go")
	ed.WaitUpdate(id, "agent_message_chunk")
	ed.Notify("session/cancel", map[string]any{"sessionId": id})
	if got := ed.StopReason(ed.Wait(resp)); got != "cancelled" {
		t.Fatalf("stopReason = %q", got)
	}
	ed.Close()
	if strings.Contains(ed.Stderr(), "context canceled") {
		t.Errorf("stderr shows the library's cancel log:\n%s", ed.Stderr())
	}
}
