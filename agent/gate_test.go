package agent

import (
	"context"
	"errors"
	"testing"
)

func TestGate(t *testing.T) {
	var g gate
	ctx, err := g.begin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.begin(context.Background()); !errors.Is(err, ErrBusy) {
		t.Errorf("second begin = %v, want ErrBusy", err)
	}
	g.stop()
	if ctx.Err() == nil {
		t.Error("stop did not cancel the turn")
	}
	g.end()
	ctx, err = g.begin(context.Background())
	if err != nil {
		t.Fatalf("begin after end = %v", err)
	}
	g.close()
	if ctx.Err() == nil {
		t.Error("close did not cancel the running turn")
	}
	g.end()
	if _, err := g.begin(context.Background()); !errors.Is(err, ErrClosed) {
		t.Errorf("begin after close = %v, want ErrClosed", err)
	}
}
