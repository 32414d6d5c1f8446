package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"companion/agent/model"
	"companion/tools"
)

// prepared is a call ready to run: its id, tool and invocation, or the
// result it already has (an early failure).
type prepared struct {
	fc   *model.FunctionCall
	id   string
	args json.RawMessage
	tool tools.Tool
	inv  tools.Invocation
	res  *tools.Result
	// terminal is the editor terminal that showed the call's output, if any.
	terminal string
}

// readOnly reports whether a call may run beside others: it reads or
// searches and never needs approval.
func (p *prepared) readOnly() bool {
	if p.inv == nil {
		return true
	}
	k := p.tool.Kind()
	return k == tools.KindRead || k == tools.KindSearch
}

// runTools runs the model's calls and returns the function responses (and
// any media they produced) for the next request. Runs of consecutive
// read-only calls go concurrently; the others one at a time, in the
// model's order. Calls left when the turn is cancelled are answered as
// cancelled without running.
func (s *Session) runTools(ctx context.Context, calls []model.FunctionCall) []model.Part {
	ps := make([]*prepared, len(calls))
	for i := range calls {
		ps[i] = s.prepare(&calls[i])
	}
	for i := 0; i < len(ps); {
		j := i + 1
		if ps[i].readOnly() {
			for j < len(ps) && ps[j].readOnly() {
				j++
			}
		}
		s.runBatch(ctx, ps[i:j])
		i = j
	}
	var parts, media []model.Part
	for _, p := range ps {
		parts = append(parts, functionResponse(p.fc, p.res, "The user cancelled the turn before this tool ran."))
		if p.res == nil {
			continue
		}
		if p.inv == nil {
			continue
		}
		if text := s.touchMemory(p.inv.Locations()); text != "" {
			media = append(media, model.Part{Text: text})
		}
		for _, img := range p.res.Images {
			media = append(media, model.Part{InlineData: &model.Blob{MIMEType: img.MIMEType, Data: img.Data}})
		}
	}
	return append(parts, media...)
}

// runBatch runs calls concurrently (a batch of one runs inline).
func (s *Session) runBatch(ctx context.Context, batch []*prepared) {
	if len(batch) == 1 {
		s.runOne(ctx, batch[0])
		return
	}
	var wg sync.WaitGroup
	for _, p := range batch {
		wg.Go(func() { s.runOne(ctx, p) })
	}
	wg.Wait()
}

// prepare looks the tool up and validates the arguments.
func (s *Session) prepare(fc *model.FunctionCall) *prepared {
	p := &prepared{fc: fc, id: s.nextCallID()}
	p.args, _ = json.Marshal(fc.Args)
	if fc.Args == nil {
		p.args = []byte("{}")
	}
	tool, ok := s.findTool(fc.Name)
	if !ok {
		p.res = tools.ErrorResult(fmt.Sprintf("There is no tool named %q.", fc.Name))
		return p
	}
	p.tool = tool
	inv, err := tool.Prepare(s.env, p.args)
	if err != nil {
		p.res = tools.ErrorResult(fmt.Sprintf("Invalid call of %s: %v", fc.Name, err))
		return p
	}
	p.inv = inv
	return p
}

// runOne takes one call through its lifecycle, reporting each state.
func (s *Session) runOne(ctx context.Context, p *prepared) {
	if ctx.Err() != nil {
		return // answered as cancelled by runTools
	}
	if p.inv == nil {
		s.emit(ctx, ToolCallStarted{ID: p.id, Name: p.fc.Name, Title: p.fc.Name, Kind: tools.KindOther, Input: p.args})
		s.finishTool(ctx, p)
		return
	}
	refusal, hookDecision := s.beforeTool(ctx, p)
	conf, err := p.inv.Confirmation(ctx)
	started := ToolCallStarted{ID: p.id, Name: p.fc.Name, Title: p.inv.Title(), Kind: p.tool.Kind(),
		Locations: p.inv.Locations(), Input: p.args, Confirm: conf}
	s.emit(ctx, started)
	if err != nil {
		p.res = tools.ErrorResult(err.Error())
		s.finishTool(ctx, p)
		return
	}
	if refusal != "" {
		s.refuse(ctx, p, refusal)
		return
	}
	q := Question{CallID: p.id, Tool: p.fc.Name, Title: started.Title, Kind: started.Kind,
		Locations: started.Locations, Input: p.args, Confirm: conf}
	asked := p.inv
	if refusal := s.permit(ctx, q, p, hookDecision); refusal != "" {
		s.refuse(ctx, p, refusal)
		return
	}
	if p.inv != asked { // the answer changed the input: checkpoint what will change
		conf, _ = p.inv.Confirmation(ctx)
	}
	if conf != nil {
		s.checkpoint(ctx, p, conf)
	}
	s.toolState(p.id, "executing", "")
	s.emit(ctx, ToolCallUpdated{ID: p.id, Status: ToolInProgress})
	p.res = s.execute(ctx, p)
	if d := p.res.Diff; d != nil && !p.res.IsError {
		if note := s.editDiagnostics(ctx, d.Path); note != "" {
			p.res.Text += note
		}
	}
	s.afterTool(ctx, p)
	s.finishTool(ctx, p)
	if p.res.Plan != nil {
		s.setPlan(ctx, p.res.Plan)
	}
}

// execute runs an approved call, mapping failures to results.
func (s *Session) execute(ctx context.Context, p *prepared) *tools.Result {
	ctx = context.WithValue(ctx, callIDKey{}, p.id)
	out := &toolOutput{s: s, ctx: ctx, id: p.id}
	res, err := p.inv.Execute(ctx, out)
	p.terminal = out.close()
	switch {
	case ctx.Err() != nil:
		return tools.ErrorResult("The user cancelled this tool call.")
	case err != nil:
		s.opts.Log.Error("tool failed", "tool", p.fc.Name, "err", err)
		return tools.ErrorResult(fmt.Sprintf("%s failed: %v", p.fc.Name, err))
	case res == nil:
		return &tools.Result{}
	}
	return res
}

// finishTool reports a call's end state and output.
func (s *Session) finishTool(ctx context.Context, p *prepared) {
	res := p.res
	s.addCall(p.fc.Name, res.IsError)
	status := ToolCompleted
	if res.IsError {
		status = ToolFailed
	}
	s.toolState(p.id, string(status), "")
	text := res.Display
	if text == "" {
		text = res.Text
	}
	var raw json.RawMessage
	if res.Raw != nil {
		raw, _ = json.Marshal(res.Raw)
	}
	s.emit(ctx, ToolCallUpdated{ID: p.id, Status: status, Text: text, Images: res.Images, Raw: raw, Diff: res.Diff,
		Refused: res.Refused, TerminalID: p.terminal})
}

// refuse ends a call that was not allowed to run (by a hook, the policy
// or the user); text tells the model why.
func (s *Session) refuse(ctx context.Context, p *prepared, text string) {
	p.res = tools.ErrorResult(text)
	p.res.Refused = true
	s.finishTool(ctx, p)
}

func (s *Session) nextCallID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.callSeq++
	return fmt.Sprintf("call_%d", s.callSeq)
}

// functionResponse answers fc with res, or with failure text when res is nil.
func functionResponse(fc *model.FunctionCall, res *tools.Result, failure string) model.Part {
	resp := map[string]any{}
	switch {
	case res == nil:
		resp["error"] = failure
	case res.IsError:
		resp["error"] = res.Text
	default:
		resp["output"] = res.Text
	}
	return model.Part{FunctionResponse: &model.FunctionResponse{ID: fc.ID, Name: fc.Name, Response: resp}}
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
