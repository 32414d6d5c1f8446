package agent

import (
	"context"
	"testing"

	"companion/internal/testkit/agenttest"
)

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
	s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) { o.Checkpoints = cp })
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
