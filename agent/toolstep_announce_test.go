package agent

import (
	"context"
	"testing"

	"companion/tools"
)

func TestAnnounceStep(t *testing.T) {
	tests := []struct {
		name        string
		tool        string
		args        map[string]any
		refusal     string
		wantNext    bool
		wantKind    tools.Kind
		wantRefused bool
	}{
		{"runs on", "echo", map[string]any{"text": "hi"}, "", true, tools.KindOther, false},
		{"unknown tool", "nope", nil, "", false, tools.KindOther, false},
		{"refused by a hook", "fake_edit", map[string]any{"Path": "a.txt"}, "Refused by a hook: no", false, tools.KindEdit, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, rec := newTestSession(t, &fakeModel{}, func(o *Options) { o.Tools = tools.NewRegistry(echoTool{}, &editTool{}) })
			p := prepareCall(s, tt.tool, tt.args)
			p.refusal = tt.refusal
			var n nextRecorder
			s.eng.announceStep(context.Background(), p, n.next)
			started := eventsOf[ToolCallStarted](rec)
			if len(started) != 1 || started[0].Kind != tt.wantKind || started[0].ID != p.id {
				t.Fatalf("announced %+v", started)
			}
			if n.ran != tt.wantNext {
				t.Errorf("next ran = %v, want %v", n.ran, tt.wantNext)
			}
			if !tt.wantNext && (p.res == nil || !p.res.IsError || p.res.Refused != tt.wantRefused) {
				t.Errorf("result = %+v, want a failure (refused %v)", p.res, tt.wantRefused)
			}
			if tt.tool == "fake_edit" && started[0].Confirm == nil {
				t.Error("the edit's confirmation is not on its card")
			}
		})
	}
}
