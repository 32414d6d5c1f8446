package agent

import (
	"context"
	"testing"

	"companion/internal/testkit/agenttest"
)

func TestExecuteStep(t *testing.T) {
	tests := []struct {
		name      string
		cancelled bool
		wantText  string
		wantError bool
		// wantOutcome is what the call's end reports as the user's decision.
		wantOutcome string
	}{
		{"runs", false, "hi", false, ""},
		{"cancelled", true, "The user cancelled this tool call.", true, OutcomeCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, rec := newTestSession(t, &agenttest.Model{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelled {
				cancel()
			}
			p := prepareCall(s, "echo", map[string]any{"text": "hi"})
			s.eng.executeStep(ctx, p)
			if p.res == nil || p.res.Text != tt.wantText || p.res.IsError != tt.wantError {
				t.Errorf("result = %+v, want %q (error %v)", p.res, tt.wantText, tt.wantError)
			}
			if p.outcome != tt.wantOutcome {
				t.Errorf("outcome = %q, want %q", p.outcome, tt.wantOutcome)
			}
			if up := eventsOf[ToolCallUpdated](rec); len(up) != 1 || up[0].Status != ToolInProgress {
				t.Errorf("updates = %+v, want one in_progress", up)
			}
		})
	}
}
