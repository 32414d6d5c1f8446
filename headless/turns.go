package headless

import (
	"context"

	"companion/agent/model"
)

// enqueue adds a prompt; prompts run one after another.
func (sr *streamRun) enqueue(parts []model.Part) {
	sr.mu.Lock()
	sr.queue = append(sr.queue, parts)
	sr.mu.Unlock()
	sr.signal()
}

// endInput says no more prompts will come.
func (sr *streamRun) endInput() {
	sr.mu.Lock()
	sr.inputEOF = true
	sr.mu.Unlock()
	sr.signal()
}

func (sr *streamRun) signal() {
	select {
	case sr.wake <- struct{}{}:
	default:
	}
}

// turns runs queued prompts, once ready is closed, until the input has
// ended and the queue is empty, or ctx ends; it closes done when it
// returns.
func (sr *streamRun) turns(ctx context.Context, ready <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	select {
	case <-ready:
	case <-ctx.Done():
		return
	}
	for {
		parts, ok := sr.take(ctx)
		if !ok {
			return
		}
		out := sr.rs.prompt(ctx, sr.rep, parts)
		sr.mu.Lock()
		close(sr.turnDone)
		sr.turnDone = nil
		sr.lastFailed = out.failed()
		sr.mu.Unlock()
	}
}

// take waits for the next prompt and marks the session busy.
func (sr *streamRun) take(ctx context.Context) ([]model.Part, bool) {
	for {
		sr.mu.Lock()
		if len(sr.queue) > 0 && ctx.Err() == nil {
			parts := sr.queue[0]
			sr.queue = sr.queue[1:]
			sr.turnDone = make(chan struct{})
			sr.mu.Unlock()
			return parts, true
		}
		eof := sr.inputEOF
		sr.mu.Unlock()
		if eof || ctx.Err() != nil {
			return nil, false
		}
		select {
		case <-sr.wake:
		case <-ctx.Done():
		}
	}
}

// interrupt stops the running turn, if any, and waits until it has ended.
func (sr *streamRun) interrupt(ctx context.Context) error {
	sr.mu.Lock()
	done := sr.turnDone
	sr.mu.Unlock()
	if done == nil {
		return nil
	}
	sr.rs.agent.Cancel()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// exitCode is the session's exit code: interrupted, or whether the last
// prompt failed.
func (sr *streamRun) exitCode(ctx context.Context) int {
	if ctx.Err() != nil {
		return ExitInterrupted
	}
	sr.mu.Lock()
	defer sr.mu.Unlock()
	if sr.lastFailed {
		return ExitError
	}
	return ExitOK
}
