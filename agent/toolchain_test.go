package agent

import (
	"context"
	"slices"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

// TestChainOrder: steps run outermost first, each around the next, and a
// step that does not call next ends the chain there.
func TestChainOrder(t *testing.T) {
	var got []string
	step := func(name string, stop bool) toolStep {
		return func(ctx context.Context, p *prepared, next toolNext) {
			got = append(got, name+" in")
			if !stop {
				next(ctx, p)
			}
			got = append(got, name+" out")
		}
	}
	last := func(context.Context, *prepared) { got = append(got, "last") }
	tests := []struct {
		name  string
		steps []toolStep
		want  []string
	}{
		{"none", nil, []string{"last"}},
		{"nested", []toolStep{step("a", false), step("b", false)}, []string{"a in", "b in", "last", "b out", "a out"}},
		{"stopped", []toolStep{step("a", false), step("b", true), step("c", false)}, []string{"a in", "b in", "b out", "a out"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			chain(tt.steps, last)(context.Background(), &prepared{})
			if !slices.Equal(got, tt.want) {
				t.Errorf("ran %q, want %q", got, tt.want)
			}
		})
	}
}

// prepareCall prepares a call of the test session's tool name with args.
func prepareCall(s *Session, name string, args map[string]any) *prepared {
	return s.eng.prepare(&model.FunctionCall{ID: "fc-" + name, Name: name, Args: args})
}

// nextRecorder is a toolNext that notes it ran and, when res is set,
// gives the call that result.
type nextRecorder struct {
	ran bool
	res *tools.Result
}

func (n *nextRecorder) next(_ context.Context, p *prepared) {
	n.ran = true
	if n.res != nil {
		p.res = n.res
	}
}

// eventsOf returns the events of type T a recorder got.
func eventsOf[T Event](r *agenttest.Recorder[Event]) []T {
	var out []T
	for _, ev := range r.All() {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}

func TestTimingStep(t *testing.T) {
	s, _ := newTestSession(t, &agenttest.Model{})
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
			s, rec := newTestSession(t, &agenttest.Model{}, func(o *Options) { o.Tools = tools.NewRegistry(agenttest.Echo{}, &editTool{}) })
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
