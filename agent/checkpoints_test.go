package agent

import (
	"context"
	"testing"

	"companion/agent/checkpoint"
)

func TestUndoTarget(t *testing.T) {
	cp := func(id, label string) checkpoint.Checkpoint { return checkpoint.Checkpoint{ID: id, Label: label} }
	// Newest first: two changes, then an /undo of the second (u1 saved
	// before restoring c2).
	afterUndo := []checkpoint.Checkpoint{cp("u1", checkpoint.RestoreLabelPrefix+"c2"), cp("c2", "before write b"), cp("c1", "before write a")}
	tests := []struct {
		name string
		list []checkpoint.Checkpoint
		mark undoMark
		want int
	}{
		{"first undo takes the newest", afterUndo[1:], undoMark{}, 0},
		{"a second undo steps back past the first", afterUndo, undoMark{target: "c2", saved: "u1"}, 2},
		{"a change since the last undo: the newest again",
			append([]checkpoint.Checkpoint{cp("c3", "before write c")}, afterUndo...), undoMark{target: "c2", saved: "u1"}, 0},
		{"after a /restore: undo the restore", afterUndo, undoMark{}, 0},
		{"restore points are skipped on the way back",
			[]checkpoint.Checkpoint{cp("u2", checkpoint.RestoreLabelPrefix+"c2"), cp("c2", "x"), cp("u1", checkpoint.RestoreLabelPrefix+"c9"), cp("c1", "y")},
			undoMark{target: "c2", saved: "u2"}, 3},
		{"nothing older left", afterUndo[:2], undoMark{target: "c2", saved: "u1"}, -1},
		{"the undone checkpoint is gone", afterUndo[:1], undoMark{target: "c2", saved: "u1"}, -1},
	}
	for _, tt := range tests {
		if got := undoTarget(tt.list, tt.mark); got != tt.want {
			t.Errorf("%s: undoTarget = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// preparingCheckpointer is a Checkpointer whose preparation runs until
// it is stopped.
type preparingCheckpointer struct {
	Checkpointer
	started, ended chan struct{}
}

func (p *preparingCheckpointer) Prepare(ctx context.Context) func() {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		close(p.started)
		<-ctx.Done() // a preparation that never finishes on its own
		close(p.ended)
	}()
	return func() { cancel(); <-p.ended }
}

// TestSessionPreparesCheckpointsInBackground opens a session whose
// checkpoint store's preparation never finishes: NewSession returns
// anyway, and Close stops the preparation.
func TestSessionPreparesCheckpointsInBackground(t *testing.T) {
	cp := &preparingCheckpointer{started: make(chan struct{}), ended: make(chan struct{})}
	s, _ := newTestSession(t, &fakeModel{}, func(o *Options) { o.Checkpoints = cp })
	<-cp.started
	select {
	case <-cp.ended:
		t.Fatal("the preparation ended before the session closed")
	default:
	}
	s.Close()
	select {
	case <-cp.ended:
	default:
		t.Fatal("Close returned with the preparation still running")
	}
}
