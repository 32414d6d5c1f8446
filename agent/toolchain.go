package agent

import "context"

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
