package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"companion/agent/hooks"
	"companion/tools"
	"companion/tools/policy"
)

// Asker puts a question to the user: the front end's permission prompt.
// It returns the chosen option, or Cancelled when the user (or the turn)
// cancelled; an error counts as a refusal.
type Asker interface {
	Ask(ctx context.Context, q Question) (Answer, error)
}

// OptionKind hints how a front end presents an option.
type OptionKind string

// Option kinds, matching ACP's PermissionOptionKind.
const (
	AllowOnce    OptionKind = "allow_once"
	AllowAlways  OptionKind = "allow_always"
	RejectOnce   OptionKind = "reject_once"
	RejectAlways OptionKind = "reject_always"
)

// Option ids: what each answer does.
const (
	ProceedOnce        = "proceed_once"
	ProceedAlways      = "proceed_always"
	ProceedAlwaysTool  = "proceed_always_tool"
	ProceedAlwaysSave  = "proceed_always_save"
	ProceedAlwaysSrv   = "proceed_always_server"
	RejectOnceID       = "reject_once"
	RejectAlwaysOption = "reject_always"
)

// Option is one answer the user may pick.
type Option struct {
	ID    string
	Label string
	Kind  OptionKind
}

// Question is a permission request for one tool call, announced earlier
// with ToolCallStarted under CallID.
type Question struct {
	CallID    string
	Tool      string
	Title     string
	Kind      tools.Kind
	Locations []tools.Location
	Input     json.RawMessage
	Confirm   *tools.Confirmation
	Options   []Option
}

// Answer is the user's choice. ModifiedContent is the text the user left
// in an edit's diff view, when the editor let them change it.
// UpdatedInput, when set with an allowing option, replaces the call's
// arguments (an SDK's can_use_tool answer); they are validated again.
type Answer struct {
	OptionID        string
	Cancelled       bool
	ModifiedContent *string
	UpdatedInput    json.RawMessage
	// Message is the user's reason for a refusal, passed on to the model.
	Message string
}

// options lists the answers offered for a confirmation.
func options(c *tools.Confirmation, root string) []Option {
	opts := []Option{{ProceedOnce, "Allow once", AllowOnce}}
	switch c.Type {
	case tools.ConfirmEdit:
		name := displayPath(root, c.Path)
		opts = append(opts,
			Option{ProceedAlways, "Always allow edits to " + name, AllowAlways},
			Option{ProceedAlwaysTool, "Allow all edits this session", AllowAlways},
			Option{ProceedAlwaysSave, "Always allow edits to " + name + " in this project", AllowAlways})
	case tools.ConfirmExec:
		// The label names exactly the rules the answer remembers; a line
		// no rule can cover (computed names, options that run programs)
		// offers no "always".
		if names := ruleNames(policy.AlwaysRules(policy.Call{Confirm: c, Root: root}, policy.ScopeThis)); names != "" {
			opts = append(opts,
				Option{ProceedAlways, "Always allow " + names + " this session", AllowAlways},
				Option{ProceedAlwaysSave, "Always allow " + names + " in this project", AllowAlways})
		}
	case tools.ConfirmMCP:
		opts = append(opts,
			Option{ProceedAlways, fmt.Sprintf("Always allow %s from %s", c.Tool, c.Server), AllowAlways},
			Option{ProceedAlwaysSrv, "Always allow every tool of " + c.Server, AllowAlways})
	default:
		opts = append(opts, Option{ProceedAlways, "Always allow", AllowAlways})
	}
	return append(opts, Option{RejectOnceID, "Reject", RejectOnce}, Option{RejectAlwaysOption, "Always reject", RejectAlways})
}

// onceOnly keeps the answers that decide this call alone. A call the
// policy asks about every time (a file that grants powers, a write outside
// the workspace, a line no rule can cover) offers no "always": no rule it
// could remember would spare the next question.
func onceOnly(opts []Option) []Option {
	var out []Option
	for _, o := range opts {
		if o.Kind == AllowOnce || o.Kind == RejectOnce {
			out = append(out, o)
		}
	}
	return out
}

// ruleNames lists the patterns of shell rules as plain words: "git
// status", "git status and git diff", "ls, cat and git diff".
func ruleNames(rules []policy.Rule) string {
	var names []string
	for _, r := range rules {
		if r.Pattern != "" {
			names = append(names, r.Pattern)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// displayPath shows a path relative to the root when inside it.
func displayPath(root, path string) string {
	if rel, ok := strings.CutPrefix(path, root+"/"); ok {
		return rel
	}
	return path
}

// permit asks the policy, and the user when the policy says so, whether a
// call may run. It returns "" when it may, else the text the model gets.
func (s *Session) permit(ctx context.Context, q Question, p *prepared, hook hooks.Decision) string {
	call := policy.Call{Tool: q.Tool, Kind: q.Kind, Confirm: q.Confirm, Root: s.Root()}
	v := s.policy.Decide(call)
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
		s.toolState(q.CallID, "approved", "policy")
		return ""
	case policy.Deny:
		s.toolState(q.CallID, "denied", "policy")
		return v.Reason
	}
	if s.opts.Asker == nil {
		s.toolState(q.CallID, "denied", "policy")
		return "This call needs the user's approval and there is no way to ask; it was not run."
	}
	q.Options = options(q.Confirm, s.Root())
	if v.Reason != "" { // why this must be asked shows on the card
		q.Title += " (" + v.Reason + ")"
		q.Options = onceOnly(q.Options)
	}
	s.toolState(q.CallID, "awaiting_approval", "")
	s.hook(ctx, hooks.Notification, q.Tool, map[string]any{"message": "companion needs your permission: " + q.Title})
	ans, err := s.opts.Asker.Ask(ctx, q)
	refusal := ""
	switch {
	case err != nil && ctx.Err() == nil:
		s.opts.Log.Warn("permission request failed", "err", err)
		refusal = "The permission request failed, so the call was not run."
	case err != nil, ans.Cancelled:
		refusal = "The user cancelled; the call was not run."
	default:
		refusal = s.applyAnswer(ctx, call, ans, p.inv)
	}
	if refusal == "" && ans.UpdatedInput != nil {
		refusal = s.reprepare(p, ans.UpdatedInput, "The user's changed input")
	}
	if refusal != "" {
		s.toolState(q.CallID, "denied", "user")
	} else {
		s.toolState(q.CallID, "approved", "user:"+ans.OptionID)
	}
	return refusal
}

// reprepare replaces a call's arguments and validates them again; it
// returns the refusal when they are invalid.
func (s *Session) reprepare(p *prepared, args json.RawMessage, who string) string {
	inv, err := p.tool.Prepare(s.env, args)
	if err != nil {
		return fmt.Sprintf("%s for %s is invalid, so the call was not run: %v", who, p.fc.Name, err)
	}
	p.args, p.inv = args, inv
	return ""
}

// toolState records one step of a call's audit trail.
func (s *Session) toolState(id, state, by string) {
	s.journal(recToolState, toolStateRecord{ID: id, State: state, By: by})
}

// applyAnswer records what an answer means and reports a refusal.
func (s *Session) applyAnswer(ctx context.Context, call policy.Call, ans Answer, inv tools.Invocation) string {
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
func (s *Session) saveRules(rules []policy.Rule) {
	if s.opts.SaveRule == nil {
		return
	}
	for _, r := range rules {
		if err := s.opts.SaveRule(r.String()); err != nil {
			s.opts.Log.Warn("cannot save permission rule", "rule", r.String(), "err", err)
		}
	}
}
