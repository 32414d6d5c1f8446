package agenttest

import (
	"context"
	"slices"
	"sync"
)

// Recorder is an event sink that keeps every event. Recorder[agent.Event]
// is an agent.Sink; it is generic so that this package need not import
// agent. When Seen is set, each event is also offered to it without
// waiting, for a test that waits for one event.
type Recorder[E any] struct {
	mu     sync.Mutex
	events []E
	Seen   chan E
}

// Emit keeps ev and offers it to Seen.
func (r *Recorder[E]) Emit(_ context.Context, ev E) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	select {
	case r.Seen <- ev:
	default:
	}
}

// All are the events emitted so far, in order.
func (r *Recorder[E]) All() []E {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.events)
}
