package command

import (
	"context"
	"strings"
	"testing"

	"companion/agent"
	"companion/internal/testkit/agenttest"
	"companion/tools/sandbox"
)

// TestStatusCommand: /status answers without the model, with the model,
// the approval mode, the sandbox and the folders, and is listed.
func TestStatusCommand(t *testing.T) {
	m := &agenttest.Model{}
	s, rec := newTestSession(t, m)
	if r, err := s.Prompt(context.Background(), userText("/status")); err != nil || r != agent.EndTurn {
		t.Fatalf("/status: %q, %v", r, err)
	}
	got := rec.All()
	if len(got) != 1 {
		t.Fatalf("events %#v, want one message", got)
	}
	text := got[0].(agent.MessageChunk).Text
	for _, want := range []string{"Model: m1", "Approval mode: " + s.Mode(), "Sandbox: off", s.Root()} {
		if !strings.Contains(text, want) {
			t.Errorf("/status = %q, want it to hold %q", text, want)
		}
	}
	if len(m.Requests()) != 0 {
		t.Error("/status called the model")
	}
	listed := false
	for _, c := range s.Commands() {
		listed = listed || c.Name == "status"
	}
	if !listed {
		t.Error("/status is not among the session's commands")
	}
}

// TestSandboxStatus names the backend, or says why none runs.
func TestSandboxStatus(t *testing.T) {
	if be := sandbox.New(sandbox.ReadOnly, false).Backend(); be.Name != sandbox.None {
		want := "read-only, backend " + string(be.Name) + " (" + be.Why + "), network blocked"
		if got := sandboxStatus(nil, "read-only", false); !strings.HasPrefix(got, want) {
			t.Errorf("sandboxStatus = %q, want it to start with %q", got, want)
		}
	}
	t.Setenv(sandbox.BackendEnv, "bwrap")
	t.Setenv("PATH", t.TempDir())
	if got := sandboxStatus(nil, "workspace-write", false); !strings.Contains(got, "no backend can run here") ||
		!strings.Contains(got, "bwrap") {
		t.Errorf("sandboxStatus without bwrap = %q", got)
	}
	if got := sandboxStatus(nil, "bogus", true); !strings.HasPrefix(got, "read-only") {
		t.Errorf("sandboxStatus of an unknown mode = %q, want read-only", got)
	}
	if got := sandboxStatus(nil, "off", false); !strings.HasPrefix(got, "off") {
		t.Errorf("sandboxStatus(off) = %q", got)
	}
	// The session's prober answers, not a probe of this machine.
	probes := 0
	prober := sandbox.NewProber(func(sandbox.Backend, string) (sandbox.ProbeResult, error) {
		probes++
		return sandbox.ProbeResult{BackendInfo: sandbox.BackendInfo{Name: sandbox.Bwrap, Why: "the prober's answer"}, Path: "/x/bwrap"}, nil
	})
	for range 2 {
		if got := sandboxStatus(prober, "read-only", true); !strings.HasPrefix(got, "read-only, backend bwrap (the prober's answer), network allowed") {
			t.Errorf("sandboxStatus with a prober = %q", got)
		}
	}
	if probes != 1 {
		t.Errorf("the prober probed %d times, want 1", probes)
	}
}
