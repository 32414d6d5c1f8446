package headless

import (
	"context"
	"errors"
	"fmt"

	"companion/agent"
	"companion/agent/hooks"
	"companion/host"
	"companion/tools/mcp"
)

// extras are what an SDK's initialize adds to a session.
type extras struct {
	hooks        hooks.Config
	mcp          []mcp.ServerConfig
	agents       []agent.AgentDef
	systemPrompt string
	appendPrompt string
}

// runSession is the agent session of a run and the host that holds it.
type runSession struct {
	id    string
	agent *agent.Session
	mcp   *mcp.Manager
	// agents names the subagents the model may delegate to.
	agents []string
	host   *host.Host
}

// close ends the session, its MCP servers and its journal.
func (s *runSession) close(*Options) { s.host.Close() }

// openSession has a host build the run's agent session, new or resumed,
// with rep as its sink and asker as its way to ask (nil: calls that need
// approval are refused).
func openSession(ctx context.Context, o *Options, ex extras, rep *reporter, asker agent.Asker) (*runSession, error) {
	h := host.New(o.Options)
	id, err := h.ResumeID(o.Resume, o.Cwd)
	if err != nil {
		h.Close()
		return nil, err
	}
	req := host.Request{ID: id, Cwd: o.Cwd, Extra: o.IncludeDirs, MCP: ex.mcp, Hooks: ex.hooks, AllowRules: o.AllowedTools,
		Agents: ex.agents, SystemPrompt: ex.systemPrompt, AppendSystemPrompt: ex.appendPrompt, MaxRequests: o.MaxTurns}
	if req.ID == "" {
		req.ID = host.NewSessionID()
	}
	rep.session = req.ID
	ports := host.Ports{Sink: rep, Asker: asker, Observer: &mcpWatch{rep: rep}, Headless: true}
	var hs *host.Session
	if o.Resume == "" {
		hs, err = h.New(ctx, req, ports)
	} else {
		hs, _, err = h.Restore(ctx, req, ports)
	}
	if err != nil {
		h.Close()
		return nil, sessionError(req.ID, err)
	}
	rs := &runSession{id: hs.ID, agent: hs.Agent, mcp: hs.MCP, agents: hs.Agents, host: h}
	if o.ApprovalMode != "" {
		mode, _ := agentMode(o.ApprovalMode) // checked by Options.Check
		if err := rs.agent.SetMode(mode); err != nil {
			rs.close(o)
			return nil, fmt.Errorf("%w: %w", ErrUsage, err)
		}
	}
	rep.model, rep.totals = rs.agent.ModelName, rs.agent.Totals
	rep.lastTotals = rs.agent.Totals()
	return rs, nil
}

// sessionError words the host's errors for a run: bad permission rules
// are usage errors, a missing stored session says so.
func sessionError(id string, err error) error {
	switch {
	case errors.Is(err, host.ErrRules):
		return fmt.Errorf("%w: %w", ErrUsage, err)
	case errors.Is(err, host.ErrNotFound):
		return fmt.Errorf("cannot resume %s: %w", id, errNoSession)
	}
	return err
}

// errNoSession is why --resume failed; errNoSessionHere why --continue
// (or --resume latest) did.
var (
	errNoSession     = errors.New("no stored session with this id")
	errNoSessionHere = host.ErrNoStoredSession
)
