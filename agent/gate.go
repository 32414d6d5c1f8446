package agent

import (
	"context"
	"sync"
)

// gate lets one turn run at a time: it hands out the turn's context,
// cancels it, and refuses turns once the session is closed.
type gate struct {
	// mu guards the fields below.
	mu sync.Mutex
	// running is set while a turn runs; cancel cancels its context.
	running bool
	cancel  context.CancelFunc
	// closed refuses further turns.
	closed bool
}

// begin marks a turn running and returns its context; ErrClosed or
// ErrBusy when no turn may start.
func (g *gate) begin(ctx context.Context) (context.Context, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.closed:
		return nil, ErrClosed
	case g.running:
		return nil, ErrBusy
	}
	ctx, cancel := context.WithCancel(ctx)
	g.running, g.cancel = true, cancel
	return ctx, nil
}

// end marks the turn over.
func (g *gate) end() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cancel != nil {
		g.cancel()
	}
	g.running, g.cancel = false, nil
}

// stop cancels the running turn, if any.
func (g *gate) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cancel != nil {
		g.cancel()
	}
}

// close cancels the running turn and refuses further ones.
func (g *gate) close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	if g.cancel != nil {
		g.cancel()
	}
}

// locked is one value behind its own lock, for the session's small
// pieces of state that change alone (the undo mark, the thought level,
// the system prompt, the loaded memory).
type locked[T any] struct {
	// mu guards v.
	mu sync.Mutex
	v  T
}

// get returns the value.
func (l *locked[T]) get() T {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.v
}

// set replaces the value.
func (l *locked[T]) set(v T) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.v = v
}
