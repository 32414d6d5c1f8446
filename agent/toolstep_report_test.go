package agent

import (
	"context"
	"testing"

	"companion/internal/testkit/agenttest"
	"companion/tools"
)

func TestReportStep(t *testing.T) {
	tests := []struct {
		name       string
		res        *tools.Result
		wantStatus ToolStatus
		wantPlan   bool
	}{
		{"completed", &tools.Result{Text: "ok"}, ToolCompleted, false},
		{"failed", tools.ErrorResult("no"), ToolFailed, false},
		{"with a plan", &tools.Result{Text: "ok", Plan: []tools.PlanEntry{{Content: "step"}}}, ToolCompleted, true},
		{"cancelled before it ran", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, rec := newTestSession(t, &agenttest.Model{})
			p := prepareCall(s, "echo", map[string]any{"text": "hi"})
			n := nextRecorder{res: tt.res}
			s.eng.reportStep(context.Background(), p, n.next)
			updates := eventsOf[ToolCallUpdated](rec)
			switch {
			case tt.wantStatus == "" && len(updates) != 0:
				t.Errorf("reported %+v for a call that did not run", updates)
			case tt.wantStatus != "" && (len(updates) != 1 || updates[0].Status != tt.wantStatus):
				t.Errorf("reported %+v, want one %s", updates, tt.wantStatus)
			}
			if plans := eventsOf[PlanUpdated](rec); (len(plans) == 1) != tt.wantPlan {
				t.Errorf("plan updates = %+v, want one: %v", plans, tt.wantPlan)
			}
		})
	}
}
