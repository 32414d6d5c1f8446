package host

import (
	"context"
	"sync"

	"companion/agent"
	"companion/config"
	"companion/telemetry"
	"companion/tools/mcp"
)

// sessionTelemetry is a session's telemetry, or nil when the user did
// not enable it: then no exporter, file or connection is set up. tel is
// the user's telemetry settings (user settings, environment, flags) as
// the host has them, never the project's: a repository must not send
// what the user does to an endpoint of its choosing, so a project's
// settings (and its .env) have no say (see config.Telemetry).
type sessionTelemetry struct{ p telemetrySink }

// telemetrySink is what a session's telemetry does: *telemetry.Provider,
// or a test's stand-in.
type telemetrySink interface {
	agent.Telemetry
	SessionStarted(ctx context.Context, s telemetry.SessionInfo)
	MCPState(ctx context.Context, server, state, errText string)
	Shutdown(ctx context.Context) error
}

// startTelemetry builds the session's telemetry when tel enables it. A
// provider that cannot start (an unwritable outfile, a bad endpoint) is
// logged and the session goes on without it.
func (h *Host) startTelemetry(ctx context.Context, tel config.Telemetry, id string) *sessionTelemetry {
	if !tel.On() {
		return nil
	}
	p, err := telemetry.New(ctx, telemetry.Options{Target: tel.Target, Endpoint: tel.OTLPEndpoint,
		Protocol: tel.OTLPProtocol, Outfile: tel.Outfile, LogPrompts: tel.Prompts(),
		SessionID: id, Version: h.opts.Version, Log: h.log})
	if err != nil {
		h.log.Warn("telemetry is off for this session", "session", id, "err", err)
		return nil
	}
	return &sessionTelemetry{p: p}
}

// observer is the agent's side of t; nil (no observer) when t is.
func (t *sessionTelemetry) observer() agent.Telemetry {
	if t == nil {
		return nil
	}
	return t.p
}

// started records the session's start with a summary of its settings
// (never a key or an endpoint's credentials).
func (t *sessionTelemetry) started(cfg config.Config, s *Session) {
	if t == nil {
		return
	}
	n := 0
	if s.MCP != nil {
		n = len(s.MCP.Status())
	}
	provider := cfg.Provider
	if provider == "" {
		provider = "gemini"
	}
	t.p.SessionStarted(context.Background(), telemetry.SessionInfo{Model: s.Agent.ModelName(), Provider: provider,
		ApprovalMode: s.Agent.Mode(), Sandbox: cfg.Sandbox, MCPServers: n})
}

// mcpState records an MCP server's change of state.
func (t *sessionTelemetry) mcpState(c mcp.StateChange) {
	if t == nil {
		return
	}
	t.p.MCPState(context.Background(), c.Server, string(c.Kind), c.Reason)
}

// shutdown flushes and stops the session's telemetry, within
// telemetry.ShutdownTimeout or by ctx's deadline, whichever comes first.
func (t *sessionTelemetry) shutdown(ctx context.Context) {
	if t != nil {
		_ = t.p.Shutdown(ctx)
	}
}

// shutdownTelemetry flushes and stops the telemetry of sessions side by
// side under one deadline, telemetry.ShutdownTimeout from now: closing
// companion waits one budget for an unreachable collector, not one per
// open session.
func shutdownTelemetry(sessions []*Session) {
	ctx, cancel := context.WithTimeout(context.Background(), telemetry.ShutdownTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, s := range sessions {
		if s.tel != nil {
			wg.Go(func() { s.tel.shutdown(ctx) })
		}
	}
	wg.Wait()
}
