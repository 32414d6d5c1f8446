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
	// restarts counts the starts after a crash; crashed is set at the
	// first crash.
	restarts int
	crashed  bool
	// starting is closed when the start under way ends; nil when none
	// is. cancelStart cancels it.
	starting    chan struct{}
	cancelStart context.CancelFunc
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
// the backoff allows. A start runs on its own (bounded by startTimeout),
// so a caller whose ctx ends first leaves it to finish for the next one.
// The caller holds the entry.
func (e *entry) running(ctx context.Context, s Server, root string, wrap Wrap, info clientInfo, log *slog.Logger) (*instance, error) {
	e.mu.Lock()
	if e.in == nil && e.starting == nil {
		if wait := time.Until(e.retryAt); wait > 0 {
			e.mu.Unlock()
			return nil, fmt.Errorf("%w: %s is restarting in %s", ErrUnavailable, s.Name, wait.Round(time.Second))
		}
		startCtx, cancel := context.WithCancel(context.Background())
		e.starting, e.cancelStart, e.state = make(chan struct{}), cancel, StateStarting
		go e.start(startCtx, s, root, wrap, info, log, e.starting)
	}
	in, starting := e.in, e.starting
	e.mu.Unlock()
	if in != nil {
		return in, nil
	}
	select {
	case <-starting:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.in == nil {
		return nil, fmt.Errorf("%w: %s", ErrUnavailable, e.reason)
	}
	return e.in, nil
}

// start launches the server and records the outcome; done is closed
// when it is known. A server that came up after stop cancelled ctx is
// stopped again before done closes.
func (e *entry) start(ctx context.Context, s Server, root string, wrap Wrap, info clientInfo, log *slog.Logger, done chan struct{}) {
	defer close(done)
	in, err := launch(ctx, s, root, wrap, info, log)
	e.mu.Lock()
	e.starting, e.cancelStart = nil, nil
	if e.crashed {
		e.restarts++
	}
	switch {
	case err == nil && ctx.Err() != nil:
		e.mu.Unlock()
		in.stop(time.Second)
		return
	case err != nil:
		e.state, e.reason = StateFailed, err.Error()
		e.delay()
	default:
		e.in, e.state, e.reason = in, StateRunning, ""
		go e.watch(in, log)
	}
	e.mu.Unlock()
}

// watch notes the instance's end when it was not asked to stop.
func (e *entry) watch(in *instance, log *slog.Logger) {
	<-in.proc.exited
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.in != in {
		return
	}
	e.in, e.state, e.reason, e.crashed = nil, StateCrashed, in.proc.exitReason(), true
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

// stop ends the running instance, if any, and a start under way.
func (e *entry) stop(grace time.Duration) {
	e.mu.Lock()
	in, starting := e.in, e.starting
	if e.cancelStart != nil {
		e.cancelStart()
	}
	e.in, e.state = nil, StateNotStarted
	e.mu.Unlock()
	if starting != nil {
		<-starting
	}
	if in != nil {
		in.stop(grace)
	}
}
