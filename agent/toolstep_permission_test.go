package agent

import (
	"context"
	"testing"

	"companion/internal/testkit/agenttest"
	"companion/tools"
)

func TestPermissionStep(t *testing.T) {
	tests := []struct {
		name     string
		mode     string
		asker    Asker
		wantNext bool
		// wantOutcome is the user's decision the call's end reports.
		wantOutcome string
	}{
		{"yolo runs", ModeYolo, nil, true, ""},
		{"plan refuses", ModePlan, nil, false, ""},
		{"no asker refuses", ModeDefault, nil, false, ""},
		{"user allows", ModeDefault, &fakeAsker{answer: Answer{OptionID: ProceedOnce}}, true, ""},
		{"user rejects", ModeDefault, &fakeAsker{answer: Answer{OptionID: RejectOnceID}}, false, OutcomeRejected},
		{"user rejects always", ModeDefault, &fakeAsker{answer: Answer{OptionID: RejectAlwaysOption}}, false, OutcomeRejected},
		{"user cancels", ModeDefault, &fakeAsker{answer: Answer{Cancelled: true}}, false, OutcomeCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) {
				o.Tools, o.Mode, o.Asker = tools.NewRegistry(&editTool{}), tt.mode, tt.asker
			})
			p := prepareCall(s, "fake_edit", map[string]any{"Path": "a.txt", "Text": "x"})
			s.eng.announceStep(context.Background(), p, func(context.Context, *prepared) {})
			var n nextRecorder
			s.eng.permissionStep(context.Background(), p, n.next)
			if n.ran != tt.wantNext {
				t.Errorf("next ran = %v, want %v", n.ran, tt.wantNext)
			}
			if !tt.wantNext && (p.res == nil || !p.res.Refused) {
				t.Errorf("result = %+v, want a refusal", p.res)
			}
			if p.outcome != tt.wantOutcome {
				t.Errorf("outcome = %q, want %q", p.outcome, tt.wantOutcome)
			}
		})
	}
}
