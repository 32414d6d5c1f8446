package agent

import (
	"context"

	"companion/agent/hooks"
	"companion/tools"
	"companion/tools/policy"
)

// sandboxEscape is a call that asks to run outside the command sandbox
// (run_shell_command with outside_sandbox). Running it is a permission of
// its own: asked every time, in every approval mode, with no "always".
type sandboxEscape interface {
	// OutsideSandbox reports whether the call asks to run outside an
	// active sandbox.
	OutsideSandbox() bool
	// AllowOutsideSandbox records the user's approval for this call; the
	// call refuses to run outside the sandbox without it.
	AllowOutsideSandbox()
}

// escapeOf returns inv as a sandboxEscape when it asks to leave the
// sandbox.
func escapeOf(inv tools.Invocation) (sandboxEscape, bool) {
	e, ok := inv.(sandboxEscape)
	return e, ok && e.OutsideSandbox()
}

// Option labels of the outside-the-sandbox card.
const (
	outsideAllowLabel  = "Allow this time"
	outsideRejectLabel = "Reject"
)

// outsideOptions are the only answers to a call that leaves the sandbox.
func outsideOptions() []Option {
	return []Option{{ProceedOnce, outsideAllowLabel, AllowOnce}, {RejectOnceID, outsideRejectLabel, RejectOnce}}
}

// permitOutsideSandbox decides a call that asks to run outside the
// sandbox. What the policy denies stays denied; everything else is asked,
// whatever the approval mode, the "always" answers given before, the
// allow rules or a hook say. It returns "" when the user allowed it, else
// the text the model gets.
func (s *engine) permitOutsideSandbox(ctx context.Context, q Question, p *prepared) string {
	call := policy.Call{Tool: q.Tool, Kind: q.Kind, Confirm: q.Confirm, Root: s.Root()}
	if v := s.policy.Decide(call); v.Decision == policy.Deny {
		return s.policyDenied(q, v.Reason)
	}
	if s.opts.Asker == nil {
		return s.policyDenied(q, "Running a command outside the sandbox needs the user's approval and there is no way to ask; it was not run.")
	}
	q.Title = "Run without the sandbox: " + q.Title
	q.Options = outsideOptions()
	s.toolState(q.CallID, "awaiting_approval", "")
	s.hook(ctx, hooks.Notification, q.Tool, map[string]any{"message": "companion needs your permission: " + q.Title})
	ans, err := s.opts.Asker.Ask(ctx, q)
	s.journalAnswer(q, ans, err)
	switch {
	case err != nil && ctx.Err() == nil:
		s.opts.Log.Warn("permission request failed", "err", err)
		return s.outsideRefused(q, "The permission request failed, so the command was not run outside the sandbox.")
	case err != nil, ans.Cancelled:
		p.outcome = OutcomeCancelled
		return s.outsideRefused(q, "The user cancelled; the command was not run.")
	case ans.OptionID == RejectOnceID:
		p.outcome = OutcomeRejected
		because := ""
		if ans.Message != "" {
			because = " They said: " + ans.Message
		}
		return s.outsideRefused(q, "The user did not allow running this command outside the sandbox; it was not run."+because)
	case ans.OptionID != ProceedOnce:
		return s.outsideRefused(q, "The user's answer was not one of the options; the command was not run outside the sandbox.")
	}
	if ans.UpdatedInput != nil {
		if refusal := s.reprepare(p, ans.UpdatedInput, "The user's changed input"); refusal != "" {
			return s.outsideRefused(q, refusal)
		}
	}
	if e, ok := escapeOf(p.inv); ok {
		e.AllowOutsideSandbox()
	}
	s.decided(decidedUser)
	s.toolState(q.CallID, "approved", "user:outside_sandbox")
	return ""
}

// outsideRefused records a refused call and returns the refusal.
func (s *engine) outsideRefused(q Question, refusal string) string {
	s.decided(decidedReject)
	s.toolState(q.CallID, "denied", "user")
	return refusal
}
