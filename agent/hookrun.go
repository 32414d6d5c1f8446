package agent

import (
	"context"
	"fmt"

	"companion/agent/hooks"
)

// hook runs the user's hooks for an event and reports their messages and
// failures to the user. A failed hook never stops the turn: its outcome
// then carries no decision.
func (s *Session) hook(ctx context.Context, event, tool string, data map[string]any) hooks.Outcome {
	r := s.opts.Hooks
	if r == nil || !r.Has(event) {
		return hooks.Outcome{}
	}
	var runErr error
	if s.tel != nil {
		var end func(error)
		ctx, end = s.tel.t.StartStep(ctx, "hook", event)
		defer func() { end(runErr) }()
	}
	out, err := r.Run(ctx, event, hooks.Input{SessionID: s.opts.ID, TranscriptPath: s.transcriptPath(),
		Cwd: s.Root(), ToolName: tool, Data: data})
	runErr = err
	if err != nil {
		s.opts.Log.Warn("hooks did not run", "event", event, "err", err)
		return hooks.Outcome{}
	}
	for _, e := range out.Errors {
		s.emit(ctx, Notice{Level: "warning", Text: fmt.Sprintf("A %s hook failed and was ignored: %v", event, e)})
	}
	if out.SystemMessage != "" && !out.SuppressOutput {
		s.emit(ctx, Notice{Level: "info", Text: event + " hook: " + out.SystemMessage})
	}
	return out
}

// transcriptPath is the file the session's log is written to, for hooks;
// "" when the session is not stored.
func (s *Session) transcriptPath() string {
	if p, ok := s.opts.Journal.(interface{ Path() string }); ok {
		return p.Path()
	}
	return ""
}

// blocked reports whether a hook outcome stops what it was asked about.
func blocked(out hooks.Outcome) bool {
	return out.Decision == hooks.Deny || out.Decision == hooks.Block || out.Stop
}

// hookReason is the reason a hook gave, or a default.
func hookReason(out hooks.Outcome, what string) string {
	if out.Reason != "" {
		return out.Reason
	}
	if out.StopReason != "" {
		return out.StopReason
	}
	return "a hook refused " + what
}
