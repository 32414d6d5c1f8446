package agent

import (
	"context"
	"encoding/json"

	"companion/agent/hooks"
)

// beforeHooksStep runs BeforeTool hooks. They may replace the call's
// input; a refusal waits in p.refusal until the call is announced, and
// their ask/allow hint in p.hookDecision for the permission step.
func (s *engine) beforeHooksStep(ctx context.Context, p *prepared, next toolNext) {
	if p.inv != nil {
		p.refusal, p.hookDecision = s.beforeTool(ctx, p)
	}
	next(ctx, p)
}

// afterHooksStep runs AfterTool hooks on the result of a call that ran.
func (s *engine) afterHooksStep(ctx context.Context, p *prepared, next toolNext) {
	next(ctx, p)
	s.afterTool(ctx, p)
}

// beforeTool runs BeforeTool hooks for a prepared call. It may replace the
// call's input (the call is then prepared again) and returns the refusal
// text when a hook denies it, and whether a hook wants the user asked or
// has approved it.
func (s *engine) beforeTool(ctx context.Context, p *prepared) (refusal string, decision hooks.Decision) {
	if r := s.opts.Hooks; r == nil || !r.Has(hooks.BeforeTool) {
		return "", ""
	}
	var input map[string]any
	json.Unmarshal(p.args, &input)
	out := s.toolHook(ctx, hooks.BeforeTool, p, map[string]any{"tool_name": p.fc.Name, "tool_input": input, "tool_use_id": p.id})
	if blocked(out) {
		return "Refused by a hook: " + hookReason(out, "this call"), out.Decision
	}
	if out.ToolInput != nil {
		args, _ := json.Marshal(out.ToolInput)
		if refusal := s.reprepare(p, args, "A hook's changed input"); refusal != "" {
			return refusal, out.Decision
		}
	}
	return "", out.Decision
}

// afterTool runs AfterTool hooks; a blocking hook's reason is added to
// what the model reads.
func (s *engine) afterTool(ctx context.Context, p *prepared) {
	out := s.toolHook(ctx, hooks.AfterTool, p, map[string]any{"tool_name": p.fc.Name, "tool_use_id": p.id,
		"tool_input": json.RawMessage(p.args), "tool_response": map[string]any{"text": p.res.Text, "is_error": p.res.IsError}})
	if blocked(out) {
		p.res.Text += "\n\nA hook objected to this result: " + hookReason(out, "the result")
	}
	if out.AdditionalContext != "" {
		p.res.Text += "\n\n" + out.AdditionalContext
	}
}
