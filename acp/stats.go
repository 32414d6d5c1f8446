package acp

import (
	"context"

	"companion/agent"
	"companion/rpc"
)

// MethodStats is companion's extension method for a session's figures:
// requests, errors, tokens by type, time in the model and in tools, tool
// calls and who decided them (see the package doc, "Extensions").
const MethodStats = "_companion/session/stats"

// StatsRequest names the session whose figures the editor wants.
type StatsRequest struct {
	SessionID SessionID `json:"sessionId"`
}

// StatsResponse is the session's figures so far, what /stats shows as
// text, so editors need not parse it.
type StatsResponse struct {
	SessionID SessionID `json:"sessionId"`
	agent.Stats
	// LanguageServers are /status's lines for the session's language
	// servers, for the editors' status views.
	LanguageServers []string `json:"languageServers"`
}

// registerStats routes _companion/session/stats.
func (c *connState) registerStats(m *rpc.Mux) {
	rpc.Handle(m, MethodStats, c.stats)
}

// stats is _companion/session/stats.
func (c *connState) stats(_ context.Context, _ *rpc.Conn, p *StatsRequest) (*StatsResponse, error) {
	if err := c.ready(false); err != nil {
		return nil, err
	}
	s, err := c.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	return &StatsResponse{SessionID: p.SessionID, Stats: s.agent.Stats(), LanguageServers: s.agent.LanguageServers()}, nil
}
