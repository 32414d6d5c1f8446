package agent

import (
	"context"
	"encoding/json"

	"companion/tools"
)

// reportStep sends the call's end state and output once the rest of the
// chain has run, whoever ended it, then the plan a call set.
func (s *engine) reportStep(ctx context.Context, p *prepared, next toolNext) {
	next(ctx, p)
	if p.res == nil {
		return // answered as cancelled by runTools
	}
	s.finishTool(ctx, p)
	if p.res.Plan != nil {
		s.setPlan(ctx, p.res.Plan)
	}
}

// finishTool reports a call's end state and output.
func (s *engine) finishTool(ctx context.Context, p *prepared) {
	res := p.res
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
	s.emit(ctx, ToolCallUpdated{ID: p.id, Status: status, Text: text, Images: res.Images, Raw: raw, Diff: res.Diff, More: res.More,
		Refused: res.Refused, TerminalID: p.terminal, Outcome: p.outcome})
}

// refuse ends a call that was not allowed to run (by a hook, the policy
// or the user); text tells the model why. The report step sends the
// call's end state.
func refuse(p *prepared, text string) {
	p.res = tools.ErrorResult(text)
	p.res.Refused = true
}
