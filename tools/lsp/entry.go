package lsp

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Server states, as Status reports them.
const (
	StateRunning    = "running"
	StateStarting   = "starting"
	StateCrashed    = "crashed"
	StateFailed     = "failed to start"
	StateNotStarted = "not started"
)

// The restart backoff: the first wait, and the longest.
const (
	backoffFirst = time.Second
	backoffMax   = time.Minute
)

// entry is one server for one root across its starts and crashes.
type entry struct {
	// sem is held by whoever uses or starts the instance (size 1).
	sem chan struct{}

	// mu guards the fields below.
	mu    sync.Mutex
	in    *instance
	state string
	// reason says why the last start failed or the server ended.
	reason string
	// backoff is the wait after the next crash; retryAt the time before
	// which no start is tried.
	backoff time.Duration
	retryAt time.Time
	// restarts counts the starts after a crash.
	restarts int
}

// newEntry returns an entry that has not started.
func newEntry() *entry {
	return &entry{sem: make(chan struct{}, 1), state: StateNotStarted, backoff: backoffFirst}
}

// lock takes the entry, or fails when ctx ends first.
func (e *entry) lock(ctx context.Context) error {
	select {
	case e.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// unlock lets the entry go.
func (e *entry) unlock() { <-e.sem }

// running returns the live instance, starting one when there is none and
// the backoff allows. The caller holds the entry.
func (e *entry) running(ctx context.Context, s Server, root string, wrap Wrap, info clientInfo, log *slog.Logger) (*instance, error) {
	e.mu.Lock()
	in, wait := e.in, time.Until(e.retryAt)
	crashed := e.state == StateCrashed || e.state == StateFailed
	if in == nil {
		e.state = StateStarting
	}
	e.mu.Unlock()
	if in != nil {
		return in, nil
	}
	if wait > 0 {
		e.setState(StateCrashed, "")
		return nil, fmt.Errorf("%w: %s is restarting in %s", ErrUnavailable, s.Name, wait.Round(time.Second))
	}
	in, err := launch(ctx, s, root, wrap, info, log)
	e.mu.Lock()
	defer e.mu.Unlock()
	if crashed {
		e.restarts++
	}
	if err != nil {
		e.state, e.reason = StateFailed, err.Error()
		e.delay()
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	e.in, e.state, e.reason = in, StateRunning, ""
	go e.watch(in, log)
	return in, nil
}

// watch notes the instance's end when it was not asked to stop.
func (e *entry) watch(in *instance, log *slog.Logger) {
	<-in.proc.exited
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.in != in {
		return
	}
	e.in, e.state, e.reason = nil, StateCrashed, in.proc.exitReason()
	e.delay()
	_ = in.client.Close()
	log.Warn("language server ended", "server", in.server.Name, "root", in.root, "reason", e.reason)
}

// delay sets the time before the next start and doubles the backoff.
// The caller holds e.mu.
func (e *entry) delay() {
	e.retryAt = time.Now().Add(e.backoff)
	e.backoff = min(2*e.backoff, backoffMax)
}

// setState sets the state and, when why is not empty, the reason.
func (e *entry) setState(state, why string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.state = state
	if why != "" {
		e.reason = why
	}
}

// stop ends the running instance, if any.
func (e *entry) stop(grace time.Duration) {
	e.mu.Lock()
	in := e.in
	e.in, e.state = nil, StateNotStarted
	e.mu.Unlock()
	if in != nil {
		in.stop(grace)
	}
}
