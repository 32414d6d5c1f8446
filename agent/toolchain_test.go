package agent

import (
	"context"
	"slices"
	"testing"

	"companion/agent/model"
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
func eventsOf[T Event](r *recorder) []T {
	var out []T
	for _, ev := range r.all() {
		if e, ok := ev.(T); ok {
			out = append(out, e)
		}
	}
	return out
}
