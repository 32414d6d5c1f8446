package e2e

import (
	"testing"

	"companion/internal/testkit/acptest"

	"companion/internal/testkit/testio"
)

// TestTelemetryExitSilentCollector: the real binary with telemetry on and
// a collector that accepts connections but never answers, three sessions
// open with something to send, exits cleanly when the editor closes its
// input. That the wait is one budget for all sessions, not one per
// session, is checked structurally by host's TestTelemetryCloseOneBudget;
// here the collector must have been dialled, so the exit really went
// through the unanswered flush.
func TestTelemetryExitSilentCollector(t *testing.T) {
	t.Parallel()
	for _, proto := range []string{"grpc", "http"} {
		t.Run(proto, func(t *testing.T) {
			collector := testio.Listen(t, true)
			addr := collector.Addr
			sc := script(t, `{"turns":[{"chunks":[{"text":"ok"}],"times":10}]}`)
			ed := acptest.Start(t, companionBin(t), []string{"acp", "--script", sc, "--telemetry",
				"--telemetry-otlp-endpoint", "http://" + addr, "--telemetry-otlp-protocol", proto}, env(t), nil)
			ed.Initialize(map[string]any{})
			for range 3 {
				id := ed.NewSession(workspace(t, nil))
				if got := ed.StopReason(ed.Wait(ed.Prompt(id, "hi"))); got != "end_turn" {
					t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
				}
			}
			ed.Close() // fails the test unless companion exits, with status 0
			if collector.Accepted() == 0 {
				t.Error("the collector was never dialled: the exit did not wait on it")
			}
		})
	}
}
