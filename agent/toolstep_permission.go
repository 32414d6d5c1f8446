package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"companion/agent/hooks"
	"companion/tools"
	"companion/tools/policy"
)

// permissionStep asks the policy, and the user when the policy says so,
// whether the call may run; a refusal ends it. When the answer changed
// the input, the call is asked again what it will change, so the
// checkpoint saves the right files.
func (s *engine) permissionStep(ctx context.Context, p *prepared, next toolNext) {
	st := p.started
	q := Question{CallID: p.id, Tool: p.fc.Name, Title: st.Title, Kind: st.Kind,
		Locations: st.Locations, Input: p.input(), Confirm: st.Confirm}
	asked := p.inv
	if refusal := s.permit(ctx, q, p, p.hookDecision); refusal != "" {
		refuse(p, refusal)
		return
	}
	if p.inv != asked {
		p.conf, _ = p.inv.Confirmation(ctx)
	}
	next(ctx, p)
}

// permit asks the policy, and the user when the policy says so, whether a
// call may run. It returns "" when it may, else the text the model gets.
func (s *engine) permit(ctx context.Context, q Question, p *prepared, hook hooks.Decision) string {
	if c, ok := p.inv.(*planCall); ok { // the user's choice of mode: see planmode_permit.go
		return s.permitPlan(ctx, q, p, c)
	}
	if _, ok := escapeOf(p.inv); ok { // its own permission: see permission_sandbox.go
		return s.permitOutsideSandbox(ctx, q, p)
	}
	call := policy.Call{Tool: q.Tool, Kind: q.Kind, Confirm: q.Confirm, Root: s.Root(), Paths: locationPaths(q.Locations)}
	v := s.decideEach(call)
	policyAsks := v.Decision == policy.Ask
	// A hook may ask where the policy would allow, or approve a plain ask;
	// never what the policy denies or must always ask about (writes outside
	// the roots, unreadable shell lines, untrusted folders).
	switch {
	case hook == hooks.Ask && v.Decision == policy.Allow && q.Confirm != nil:
		v.Decision = policy.Ask
	case hook == hooks.Allow && v.Decision == policy.Ask && v.Reason == "":
		v.Decision = policy.Allow
	}
	switch v.Decision {
	case policy.Allow:
		s.decided(s.allowedBy(q, policyAsks))
		s.toolState(q.CallID, "approved", "policy")
		return ""
	case policy.Deny:
		return s.policyDenied(q, v.Reason)
	}
	if s.opts.Asker == nil {
		return s.policyDenied(q, "This call needs the user's approval and there is no way to ask; it was not run.")
	}
	q.Options = options(q.Confirm, s.Root())
	if v.Reason != "" { // why this must be asked shows on the card
		q.Title += " (" + v.Reason + ")"
	}
	if v.Reason != "" || q.Confirm.OnceOnly {
		q.Options = onceOnly(q.Options)
	}
	s.toolState(q.CallID, "awaiting_approval", "")
	s.hook(ctx, hooks.Notification, q.Tool, map[string]any{"message": "companion needs your permission: " + q.Title})
	ans, err := s.opts.Asker.Ask(ctx, q)
	s.journalAnswer(q, ans, err)
	refusal := ""
	switch {
	case err != nil && ctx.Err() == nil:
		s.opts.Log.Warn("permission request failed", "err", err)
		refusal = "The permission request failed, so the call was not run."
	case err != nil, ans.Cancelled:
		refusal = "The user cancelled; the call was not run."
		p.outcome = OutcomeCancelled
	default:
		refusal = s.applyAnswer(ctx, call, ans, p.inv)
		if ans.OptionID == RejectOnceID || ans.OptionID == RejectAlwaysOption {
			p.outcome = OutcomeRejected
		}
	}
	if refusal == "" && ans.UpdatedInput != nil {
		refusal = s.reprepare(p, ans.UpdatedInput, "The user's changed input")
	}
	if refusal != "" {
		s.decided(decidedReject)
		s.toolState(q.CallID, "denied", "user")
	} else {
		s.decided(decidedUser)
		s.toolState(q.CallID, "approved", "user:"+ans.OptionID)
	}
	return refusal
}

// reprepare replaces a call's arguments and validates them again; it
// returns the refusal when they are invalid.
func (s *engine) reprepare(p *prepared, args json.RawMessage, who string) string {
	inv, err := p.tool.Prepare(s.env, args)
	if err != nil {
		return fmt.Sprintf("%s for %s is invalid, so the call was not run: %v", who, p.fc.Name, err)
	}
	p.args, p.inv, p.shown = args, inv, nil
	if len(args) > maxKeptText {
		p.shown = keptInput(args)
	}
	return ""
}

// applyAnswer records what an answer means and reports a refusal.
func (s *engine) applyAnswer(ctx context.Context, call policy.Call, ans Answer, inv tools.Invocation) string {
	because := ""
	if ans.Message != "" {
		because = " They said: " + ans.Message
	}
	switch ans.OptionID {
	case RejectOnceID:
		return "The user rejected this call." + because
	case RejectAlwaysOption:
		s.policy.Remember(false, policy.AlwaysRules(call, policy.ScopeThis)...)
		return "The user rejected this call and asked not to be asked again this session." + because
	case ProceedAlways:
		s.policy.Remember(true, policy.AlwaysRules(call, policy.ScopeThis)...)
	case ProceedAlwaysSrv:
		s.policy.Remember(true, policy.AlwaysRules(call, policy.ScopeAll)...)
	case ProceedAlwaysTool:
		if call.Confirm.Type == tools.ConfirmEdit {
			s.setModeAndAnnounce(ctx, ModeAutoEdit)
		} else {
			s.policy.Remember(true, policy.AlwaysRules(call, policy.ScopeThis)...)
		}
	case ProceedAlwaysSave:
		rules := policy.AlwaysRules(call, policy.ScopeThis)
		s.policy.Remember(true, rules...)
		s.saveRules(rules)
	case ProceedOnce:
	default:
		return fmt.Sprintf("The user's answer (%q) was not one of the options; the call was not run.", ans.OptionID)
	}
	if ans.ModifiedContent != nil {
		if m, ok := inv.(tools.Modifiable); ok {
			m.UseModifiedContent(*ans.ModifiedContent)
		}
	}
	return ""
}

// saveRules writes "always" rules to the project settings.
func (s *engine) saveRules(rules []policy.Rule) {
	if s.opts.SaveRule == nil {
		return
	}
	for _, r := range rules {
		if err := s.opts.SaveRule(r.String()); err != nil {
			s.opts.Log.Warn("cannot save permission rule", "rule", r.String(), "err", err)
		}
	}
}

// policyDenied records that the policy (or the lack of a way to ask)
// refused q, and returns why, for the model.
func (s *engine) policyDenied(q Question, why string) string {
	s.decided(decidedDeny)
	s.toolState(q.CallID, "denied", "policy")
	return why
}

// locationPaths are the paths of a call's locations, which the policy's
// path rules for reading tools test.
func locationPaths(locs []tools.Location) []string {
	out := make([]string, 0, len(locs))
	for _, l := range locs {
		if l.Path != "" {
			out = append(out, l.Path)
		}
	}
	return out
}
