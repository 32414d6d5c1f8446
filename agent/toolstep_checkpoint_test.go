package agent

import (
	"context"
	"slices"
	"sync"
	"testing"

	"companion/agent/checkpoint"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

// fakeCheckpoints records what was saved.
type fakeCheckpoints struct {
	mu    sync.Mutex
	saved [][]string
	whole []bool // whether each save was of the whole work tree
}

func (f *fakeCheckpoints) Save(_ context.Context, _ string, paths []string) (checkpoint.Checkpoint, error) {
	return f.record(paths, true)
}

func (f *fakeCheckpoints) SaveFiles(_ context.Context, _ string, paths []string) (checkpoint.Checkpoint, error) {
	return f.record(paths, false)
}

func (f *fakeCheckpoints) record(paths []string, whole bool) (checkpoint.Checkpoint, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.saved, f.whole = append(f.saved, paths), append(f.whole, whole)
	return checkpoint.Checkpoint{ID: "c1"}, nil
}
func (f *fakeCheckpoints) List(context.Context) ([]checkpoint.Checkpoint, error) { return nil, nil }
func (f *fakeCheckpoints) Restore(context.Context, string) (checkpoint.Restoration, error) {
	return checkpoint.Restoration{}, nil
}

func TestCheckpointStep(t *testing.T) {
	tests := []struct {
		name string
		tool string
		args map[string]any
		want int
	}{
		{"an edit's file is saved first", "fake_edit", map[string]any{"Path": "a.txt", "Text": "x"}, 1},
		{"a call that changes nothing is not", "echo", map[string]any{"text": "hi"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cps := &fakeCheckpoints{}
			s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) {
				o.Tools, o.Checkpoints = tools.NewRegistry(agenttest.Echo{}, &editTool{}), cps
			})
			p := prepareCall(s, tt.tool, tt.args)
			s.eng.announceStep(context.Background(), p, func(context.Context, *prepared) {})
			var n nextRecorder
			s.eng.checkpointStep(context.Background(), p, n.next)
			if !n.ran {
				t.Error("next did not run")
			}
			if len(cps.saved) != tt.want {
				t.Fatalf("saved %d checkpoints, want %d", len(cps.saved), tt.want)
			}
			if tt.want > 0 && (!slices.Contains(cps.saved[0], p.conf.Path) || cps.whole[0]) {
				t.Errorf("saved %q (whole tree: %v), want only the edited file %s", cps.saved[0], cps.whole[0], p.conf.Path)
			}
		})
	}
}
