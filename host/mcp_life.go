package host

import (
	"context"
	"fmt"

	"companion/agent"
	"companion/tools/mcp"
)

// newMCP makes the manager of a session's MCP servers; open starts it once
// the agent session exists. When a server's tools or prompts change, the
// observer gets the new command list; when a server goes down, comes back
// or is given up, the user is told once. Servers that ask get the
// session's roots and may sample its model (see sampler).
func (h *Host) newMCP(servers []mcp.ServerConfig, s *Session) *mcp.Manager {
	sm := &sampler{s: s, headless: s.Ports.Headless, log: h.log}
	m := mcp.NewManager(servers, mcp.Options{Log: h.log, ClientName: h.opts.Name, ClientVersion: h.opts.Version,
		Elicit: s.Ports.Elicit, Sampler: sm, Auth: h.mcpAuth(s),
		// The agent session exists before the manager starts, and so
		// before any of these is called.
		Roots:   func() []string { return s.Agent.Roots() },
		Trusted: func() bool { return s.Agent.Trusted() },
		OnChange: func() {
			if obs := s.Ports.Observer; obs != nil {
				obs.CommandsChanged(s.Agent.Commands())
			}
		},
		OnState: func(c mcp.StateChange) { mcpNotice(s.Ports, c); s.tel.mcpState(c) }})
	sm.m = m
	return m
}

// mcpNotice tells the user that a server went down, came back or was
// given up: failures through the observer (front ends show them as an MCP
// server's failure), the rest as a notice.
func mcpNotice(p Ports, c mcp.StateChange) {
	var text string
	switch c.Kind {
	case mcp.WentDown:
		text = fmt.Sprintf("%s; restarting it in %s", c.Reason, c.Retry)
	case mcp.GaveUp:
		text = c.Reason + "; it is not started again"
		if c.Restarts > 0 {
			text = fmt.Sprintf("%s; gave up after %d restarts in 10 minutes", c.Reason, c.Restarts)
		}
	case mcp.CameBack:
		if p.Sink != nil {
			p.Sink.Emit(context.Background(), agent.Notice{Level: "info", Text: "MCP server " + c.Server + " is back; its tools are available again."})
		}
		return
	}
	switch {
	case p.Observer != nil:
		p.Observer.MCPFailed(c.Server, text)
	case p.Sink != nil:
		p.Sink.Emit(context.Background(), agent.Notice{Level: "warning", Text: "MCP server " + c.Server + " failed: " + text})
	}
}

// rootsMayHaveChanged tells the session's MCP servers about new roots (an
// editor's trusted workspace folders join the roots with its context);
// the manager sends nothing when they did not change.
func (s *Session) rootsMayHaveChanged() {
	if s.MCP != nil {
		s.MCP.RootsChanged()
	}
}
