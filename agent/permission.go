package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

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

// options lists the answers offered for a confirmation. Every label says
// its scope in plain words, the same ones in every front end: "this time",
// "for this session" (remembered until the session ends), "in this
// project" (saved to the project settings). Names are written plainly,
// never in backticks: editors show labels as text.
func options(c *tools.Confirmation, root string) []Option {
	opts := []Option{{ProceedOnce, "Allow this time", AllowOnce}}
	switch c.Type {
	case tools.ConfirmEdit:
		name := displayPath(root, c.Path)
		opts = append(opts,
			Option{ProceedAlways, "Allow edits to " + name + " for this session", AllowAlways},
			Option{ProceedAlwaysTool, "Allow all edits for this session", AllowAlways},
			Option{ProceedAlwaysSave, "Allow edits to " + name + " in this project", AllowAlways})
	case tools.ConfirmExec:
		// The label names exactly the rules the answer remembers; a line
		// no rule can cover (computed names, options that run programs)
		// offers no "always".
		if names := ruleNames(policy.AlwaysRules(policy.Call{Confirm: c, Root: root}, policy.ScopeThis)); names != "" {
			opts = append(opts,
				Option{ProceedAlways, "Allow " + names + " for this session", AllowAlways},
				Option{ProceedAlwaysSave, "Allow " + names + " in this project", AllowAlways})
		}
	case tools.ConfirmMCP:
		opts = append(opts,
			Option{ProceedAlways, fmt.Sprintf("Allow %s from %s for this session", c.Tool, c.Server), AllowAlways},
			Option{ProceedAlwaysSrv, "Allow every tool of " + c.Server + " for this session", AllowAlways})
	case tools.ConfirmInfo:
		// A fetch's "always" covers the hosts it names, never every host:
		// a page the user allowed must not open the way to any other.
		if len(c.URLs) == 0 {
			opts = append(opts, Option{ProceedAlways, "Allow for this session", AllowAlways})
		} else if hosts := ruleNames(policy.AlwaysRules(policy.Call{Confirm: c, Root: root}, policy.ScopeThis)); hosts != "" {
			opts = append(opts, Option{ProceedAlways, "Allow fetching from " + hosts + " for this session", AllowAlways})
		}
	default:
		opts = append(opts, Option{ProceedAlways, "Allow for this session", AllowAlways})
	}
	return append(opts, Option{RejectOnceID, "Reject", RejectOnce}, Option{RejectAlwaysOption, "Reject for this session", RejectAlways})
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
			names = append(names, plainName(r.Pattern))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// plainName strips the backticks a pattern may carry, so a label shows
// a command as text: "Allow echo for this session".
func plainName(s string) string {
	return strings.ReplaceAll(s, "`", "")
}

// displayPath shows a path relative to the root when inside it.
func displayPath(root, path string) string {
	if rel, ok := strings.CutPrefix(path, root+"/"); ok {
		return rel
	}
	return path
}

// decideEach asks the policy about a call; a multi-file edit (a rename)
// is decided file by file, as if each were an edit of its own, and gets
// the strictest verdict: a deny of any file denies it, an ask for any
// asks (with its reason).
func (s *engine) decideEach(call policy.Call) policy.Verdict {
	conf := call.Confirm
	if conf == nil || conf.Type != tools.ConfirmEdit || len(conf.More) == 0 {
		return s.policy.Decide(call)
	}
	files := append([]tools.Diff{{Path: conf.Path, OldText: conf.OldText, NewText: conf.NewText}}, conf.More...)
	out := policy.Verdict{Decision: policy.Allow}
	for _, d := range files {
		one := *conf
		one.Path, one.OldText, one.NewText, one.More = d.Path, d.OldText, d.NewText, nil
		c := call
		c.Confirm, c.Paths = &one, []string{d.Path}
		v := s.policy.Decide(c)
		switch {
		case v.Decision == policy.Deny:
			return v
		case v.Decision == policy.Ask && (out.Decision == policy.Allow || out.Reason == ""):
			out = v
		}
	}
	return out
}
