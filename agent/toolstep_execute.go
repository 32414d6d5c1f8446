package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"companion/tools"
)

// executeStep ends the chain: it runs the approved call.
func (s *engine) executeStep(ctx context.Context, p *prepared) {
	s.toolState(p.id, "executing", "")
	s.emit(ctx, ToolCallUpdated{ID: p.id, Status: ToolInProgress})
	p.res = s.execute(ctx, p)
}

// execute runs an approved call, mapping failures to results.
func (s *engine) execute(ctx context.Context, p *prepared) *tools.Result {
	ctx = context.WithValue(ctx, callIDKey{}, p.id)
	out := &toolOutput{s: s.Session, ctx: ctx, id: p.id}
	ctx, endMCP := s.startMCPSpan(ctx, p)
	res, err := p.inv.Execute(ctx, out)
	endMCP(err)
	p.terminal = out.close()
	switch {
	case errors.Is(err, tools.ErrTurnCancelled):
		s.Cancel() // the user cancelled from the tool's own question
		p.outcome = OutcomeCancelled
		return tools.ErrorResult("The user cancelled the turn.")
	case ctx.Err() != nil:
		p.outcome = OutcomeCancelled
		return tools.ErrorResult("The user cancelled this tool call.")
	case err != nil:
		s.opts.Log.Error("tool failed", "tool", p.fc.Name, "err", err)
		return tools.ErrorResult(fmt.Sprintf("%s failed: %v", p.fc.Name, err))
	case res == nil:
		return &tools.Result{}
	}
	return res
}

// outputInterval spaces a running call's output updates: each update
// carries the whole output so far (ACP replaces tool content), so sending
// one per write would cost quadratic time on chatty tools.
const outputInterval = 50 * time.Millisecond

// toolOutput streams a running call's output to the session's sink, at
// most one update per outputInterval, the last write always shown.
type toolOutput struct {
	s   *Session
	ctx context.Context
	id  string

	// mu guards the fields below and orders the updates sent.
	mu    sync.Mutex
	buf   []byte
	last  time.Time
	timer *time.Timer
	done  bool
	// terminal is the editor terminal shown, "" if none.
	terminal string
}

// Write appends text to the call's visible output.
func (o *toolOutput) Write(text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf = append(o.buf, text...)
	if o.done || o.timer != nil {
		return // an update is already due
	}
	if wait := outputInterval - time.Since(o.last); wait > 0 {
		o.timer = time.AfterFunc(wait, o.flush)
		return
	}
	o.sendLocked()
}

// flush sends the output a timer was waiting for.
func (o *toolOutput) flush() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.timer = nil
	if !o.done {
		o.sendLocked()
	}
}

func (o *toolOutput) sendLocked() {
	o.last = time.Now()
	o.s.emit(o.ctx, ToolCallUpdated{ID: o.id, Status: ToolInProgress, Text: string(o.buf)})
}

// close stops updates once the call has ended: its final update follows.
// It returns the editor terminal the call showed, if any.
func (o *toolOutput) close() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.done = true
	if o.timer != nil {
		o.timer.Stop()
		o.timer = nil
	}
	return o.terminal
}

// ShowTerminal embeds an editor terminal in the call.
func (o *toolOutput) ShowTerminal(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.done {
		o.terminal = id
		o.s.emit(o.ctx, ToolCallUpdated{ID: o.id, Status: ToolInProgress, TerminalID: id})
	}
}
