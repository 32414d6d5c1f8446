package agent

import (
	"context"
	"time"

	"companion/tools"
)

// A tool call runs through a chain of steps, each a link that does its
// part and hands the call on (or does not: a refusal ends the chain
// there). The chain, outermost first:
//
//	report      sends the call's end state once the rest has run, then the plan
//	timing      counts the call and how long it took, for /stats and Totals
//	beforeHooks runs BeforeTool hooks: new input, a refusal, an ask/allow hint
//	announce    asks the call what it will change and sends ToolCallStarted
//	permission  asks the policy, and the user when it must
//	checkpoint  saves the files a mutating call will change, for /undo
//	afterHooks  runs AfterTool hooks on the result
//	diagnostics adds the editor's errors for a file just edited
//	execute     runs the call (the end of the chain)
//
// Each step lives in its own toolstep_*.go file (the two hook steps share
// one), with its test beside it.

// toolNext hands a call to the rest of the chain.
type toolNext func(ctx context.Context, p *prepared)

// toolStep is one link of the chain: it may act before and after next,
// or end the call by setting p.res and not calling next.
type toolStep func(ctx context.Context, p *prepared, next toolNext)

// chain composes steps around last: steps[0] runs first.
func chain(steps []toolStep, last toolNext) toolNext {
	for i := len(steps) - 1; i >= 0; i-- {
		step, next := steps[i], last
		last = func(ctx context.Context, p *prepared) { step(ctx, p, next) }
	}
	return last
}

// toolChain builds the session's chain; NewSession calls it once.
func (s *engine) toolChain() toolNext {
	return chain([]toolStep{
		s.reportStep,
		s.timingStep,
		s.beforeHooksStep,
		s.announceStep,
		s.permissionStep,
		s.checkpointStep,
		s.afterHooksStep,
		s.diagnosticsStep,
	}, s.executeStep)
}

// runOne takes one call through the chain, reporting each state.
func (s *engine) runOne(ctx context.Context, p *prepared) {
	if ctx.Err() != nil {
		return // answered as cancelled by runTools
	}
	s.runChain(ctx, p)
}

// timingStep counts the call, whether it failed and how long it took
// (for /stats and Totals), and logs it.
func (s *engine) timingStep(ctx context.Context, p *prepared, next toolNext) {
	start := time.Now()
	ctx, end := s.startToolSpan(ctx, p)
	next(ctx, p)
	if p.res == nil {
		end(p, 0)
		return
	}
	took := time.Since(start)
	end(p, took)
	s.addCall(p.fc.Name, p.res.IsError, took)
	s.opts.Log.Debug("tool call ended", "tool", p.fc.Name, "id", p.id, "failed", p.res.IsError, "took", took)
}

// announceStep asks the call what it will change and sends
// ToolCallStarted. A call that failed to prepare, whose confirmation
// failed or that a hook refused ends here, announced.
func (s *engine) announceStep(ctx context.Context, p *prepared, next toolNext) {
	if p.inv == nil {
		s.emit(ctx, ToolCallStarted{ID: p.id, Name: p.fc.Name, Title: p.fc.Name, Kind: tools.KindOther, Input: p.input()})
		return
	}
	conf, err := p.inv.Confirmation(ctx)
	p.started = ToolCallStarted{ID: p.id, Name: p.fc.Name, Title: p.inv.Title(), Kind: p.tool.Kind(),
		Locations: p.inv.Locations(), Input: p.input(), Confirm: conf}
	s.emit(ctx, p.started)
	switch {
	case err != nil:
		p.res = tools.ErrorResult(err.Error())
		return
	case p.refusal != "":
		s.decided(decidedBlock)
		refuse(p, p.refusal)
		return
	}
	p.conf = conf
	next(ctx, p)
}
