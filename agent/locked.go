package agent

import "sync"

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
