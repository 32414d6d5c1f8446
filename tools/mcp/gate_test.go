package mcp

import (
	"errors"
	"strings"
	"testing"
)

// TestGate: closing a server's gate kills its process and refuses its
// restarts with the reason; a server without the gate keeps running;
// opening the gate lets the server start again.
func TestGate(t *testing.T) {
	gate := NewGate()
	gated, free := fakeServer("gated", "ok"), fakeServer("free", "ok")
	gated.Gate = gate
	opts := testOptions(t, nil)
	opts.MaxRestarts = 1000 // keep restarting while the gate is closed
	m := startManager(t, []ServerConfig{gated, free}, opts)
	waitFor(t, "both ready", func() bool { return stateIs(m, "gated", StateReady)() && stateIs(m, "free", StateReady)() })
	pid, freePID := status(t, m, "gated").PID, status(t, m, "free").PID

	gate.Close("the workspace is no longer trusted")
	waitFor(t, "the gated process to die", func() bool { return !processAlive(pid) })
	waitFor(t, "the refusal", func() bool {
		return strings.Contains(status(t, m, "gated").LastError, "the workspace is no longer trusted")
	})
	if st := status(t, m, "gated"); st.State == StateReady {
		t.Errorf("gated server is ready while its gate is closed: %+v", st)
	}
	if !processAlive(freePID) || status(t, m, "free").State != StateReady {
		t.Error("closing the gate stopped a server outside it")
	}

	gate.Open()
	waitFor(t, "the gated server back", stateIs(m, "gated", StateReady))
	if status(t, m, "gated").PID == pid {
		t.Error("the gated server came back with its old process")
	}
}

// TestGateAdmit: a closed gate refuses a start without running it.
func TestGateAdmit(t *testing.T) {
	g := NewGate()
	g.Close("")
	ran := false
	err := g.admit(func() (int, error) { ran = true; return 1, nil })
	if !errors.Is(err, ErrGateClosed) || ran || !g.Closed() {
		t.Errorf("admit on a closed gate: err %v, ran %v", err, ran)
	}
}
