package agent

import (
	"context"
	"fmt"

	"companion/agent/hooks"
	"companion/tools"
)

// hook runs the user's hooks for an event and reports their messages and
// failures to the user. A failed hook never stops the turn: its outcome
// then carries no decision.
func (s *Session) hook(ctx context.Context, event, tool string, data map[string]any) hooks.Outcome {
	return s.runHooks(ctx, event, hooks.Input{ToolName: tool, Data: data})
}

// toolHook is hook for a tool call: an MCP tool's hooks also learn its
// server and its name there, from which Claude Code's and Gemini CLI's
// names for it are made.
func (s *Session) toolHook(ctx context.Context, event string, p *prepared, data map[string]any) hooks.Outcome {
	in := hooks.Input{ToolName: p.fc.Name, Data: data}
	if o, ok := p.tool.(tools.MCPOrigin); ok {
		in.MCPServer, in.MCPTool = o.MCPOrigin()
	}
	return s.runHooks(ctx, event, in)
}

// runHooks runs the hooks of event for in, filled with the session's
// identity.
func (s *Session) runHooks(ctx context.Context, event string, in hooks.Input) hooks.Outcome {
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
	in.SessionID, in.TranscriptPath, in.Cwd = s.opts.ID, s.transcriptPath(), s.Root()
	out, err := r.Run(ctx, event, in)
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
