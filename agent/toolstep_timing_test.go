package agent

import (
	"context"
	"testing"

	"companion/tools"
)

func TestTimingStep(t *testing.T) {
	s, _ := newTestSession(t, &fakeModel{})
	for _, res := range []*tools.Result{{Text: "ok"}, tools.ErrorResult("no"), nil} {
		p := prepareCall(s, "echo", map[string]any{"text": "hi"})
		n := nextRecorder{res: res}
		s.eng.timingStep(context.Background(), p, n.next)
		if !n.ran {
			t.Fatal("next did not run")
		}
	}
	// A call left without a result (cancelled before it ran) is not counted.
	if got := s.Totals(); got.ToolCalls != 2 || got.FailedCalls != 1 {
		t.Errorf("totals = %+v, want 2 calls, 1 failed", got)
	}
}
