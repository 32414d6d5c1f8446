package agent

import (
	"context"

	"companion/agent/hooks"
	"companion/tools/policy"
)

// planOptions are the answers to a plan card: for exit_plan_mode the
// modes to start in (auto_edit only where the workspace allows it) and
// "keep planning"; for enter_plan_mode yes or no.
func (s *engine) planOptions(enter bool) []Option {
	if enter {
		return []Option{{PlanEnter, "Switch to plan mode", AllowOnce}, {PlanStay, "Keep going without a plan", RejectOnce}}
	}
	var opts []Option
	if s.checkMode(ModeAutoEdit) == nil {
		opts = append(opts, Option{PlanAcceptEdits, "Start, accepting edits automatically", AllowAlways})
	}
	return append(opts, Option{PlanAskEdits, "Start, asking before each edit", AllowOnce},
		Option{PlanKeep, "Keep planning", RejectOnce})
}

// permitPlan decides a plan-mode tool call: refused in the wrong mode or
// when a deny rule names it, otherwise always asked, whatever the mode,
// rules or hooks say, since the answer is the user's choice of mode. It
// records the chosen mode on c and returns "" to go on, else the text
// the model gets.
func (s *engine) permitPlan(ctx context.Context, q Question, p *prepared, c *planCall) string {
	mode := s.Mode()
	switch {
	case c.t.enter && mode == ModePlan:
		return s.policyDenied(q, "The session is already in plan mode; present the plan with exit_plan_mode when it is ready.")
	case !c.t.enter && mode != ModePlan:
		return s.policyDenied(q, "exit_plan_mode is only for plan mode, and the session is in "+mode+" mode: there is nothing to approve. Go on with the task.")
	}
	call := policy.Call{Tool: q.Tool, Kind: q.Kind, Confirm: q.Confirm, Root: s.Root()}
	if v := s.policy.Decide(call); v.Decision == policy.Deny {
		return s.policyDenied(q, v.Reason)
	}
	if s.opts.Asker == nil {
		return s.policyDenied(q, "No one can approve a change of mode here; the mode stays "+mode+".")
	}
	q.Options = s.planOptions(c.t.enter)
	s.toolState(q.CallID, "awaiting_approval", "")
	s.hook(ctx, hooks.Notification, q.Tool, map[string]any{"message": "companion needs your approval: " + q.Title})
	ans, err := s.opts.Asker.Ask(ctx, q)
	s.journalAnswer(q, ans, err)
	refusal := ""
	switch {
	case err != nil && ctx.Err() == nil:
		s.opts.Log.Warn("permission request failed", "err", err)
		refusal = "The approval request failed; the mode stays " + mode + "."
	case err != nil, ans.Cancelled:
		p.outcome = OutcomeCancelled
		refusal = "The user cancelled; the mode stays " + mode + "."
	default:
		refusal = s.planAnswer(ans, c)
	}
	if refusal != "" {
		s.decided(decidedReject)
		s.toolState(q.CallID, "denied", "user")
		if p.outcome == "" {
			p.outcome = OutcomeRejected
		}
		return refusal
	}
	s.decided(decidedUser)
	s.toolState(q.CallID, "approved", "user:"+ans.OptionID)
	return ""
}

// planAnswer records the mode an answer chose on c, or returns what the
// model reads when the answer keeps the mode.
func (s *engine) planAnswer(ans Answer, c *planCall) string {
	note := ""
	if ans.Message != "" {
		note = " Their note: " + ans.Message
	}
	offered := false
	for _, o := range s.planOptions(c.t.enter) {
		offered = offered || o.ID == ans.OptionID
	}
	switch {
	case !offered:
		return "The user's answer (" + ans.OptionID + ") was not one of the options; the mode did not change."
	case ans.OptionID == PlanAcceptEdits:
		c.mode = ModeAutoEdit
	case ans.OptionID == PlanAskEdits:
		c.mode = ModeDefault
	case ans.OptionID == PlanEnter:
		c.mode = ModePlan
	case ans.OptionID == PlanKeep:
		return "The user wants to keep planning: stay in plan mode, revise the plan, and present it again with exit_plan_mode." + note
	default: // PlanStay
		return "The user prefers to go on without planning first; carry on with the task." + note
	}
	return ""
}
