package headless

import (
	"context"
	"errors"
	"fmt"

	"companion/agent"
	"companion/agent/hooks"
	"companion/agent/store"
	"companion/config"
	"companion/frontend"
	"companion/tools"
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

// runSession is the agent session of a run and what it holds open.
type runSession struct {
	id      string
	agent   *agent.Session
	journal *store.Writer
	mcp     *mcp.Manager
	// agents names the subagents the model may delegate to.
	agents []string
}

// close ends the session, its MCP servers and its journal.
func (s *runSession) close(o *Options) {
	s.agent.Close()
	if s.journal != nil {
		if err := s.journal.Close(); err != nil {
			o.Log.Warn("closing session journal", "session", s.id, "err", err)
		}
	}
}

// openSession builds the run's agent session, new or resumed, with rep as
// its sink and asker as its way to ask (nil: calls that need approval are
// refused).
func openSession(ctx context.Context, o *Options, ex extras, rep *reporter, asker agent.Asker) (*runSession, error) {
	roots, err := tools.NewRoots(o.Cwd)
	if err != nil {
		return nil, err
	}
	cfg, trusted, err := frontend.SessionConfig(o.Config, roots.Primary())
	if err != nil {
		return nil, err
	}
	id := o.Resume
	if id == "" {
		id = frontend.NewSessionID()
	}
	rep.session = id
	opts, err := frontend.Options(frontend.Base{ID: id, Roots: roots, Config: cfg, Trusted: trusted,
		Tools: o.Tools(cfg), Log: o.Log, Hooks: ex.hooks, AllowRules: o.AllowedTools})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUsage, err)
	}
	if opts.Model, err = o.Model(ctx, cfg); err != nil {
		return nil, fmt.Errorf("cannot start the model: %w", err)
	}
	if o.MaxTurns > 0 {
		opts.MaxRequests = o.MaxTurns
	}
	opts.Sink, opts.Asker = rep, asker
	opts.Agents = append(opts.Agents, ex.agents...)
	opts.SystemPrompt, opts.AppendSystemPrompt = ex.systemPrompt, ex.appendPrompt
	rs := &runSession{id: id}
	if servers := frontend.MCPServers(cfg, o.Log, ex.mcp...); len(servers) > 0 {
		watch := &mcpWatch{rep: rep}
		rs.mcp = mcp.NewManager(servers, mcp.Options{Log: o.Log, ClientName: o.Name, ClientVersion: o.Version,
			OnChange: watch.changed})
		watch.m = rs.mcp
		opts.MCP = rs.mcp
	}
	if err := rs.start(o, opts, cfg); err != nil {
		if rs.mcp != nil {
			rs.mcp.Close()
		}
		return nil, err
	}
	rep.model, rep.totals = rs.agent.ModelName, rs.agent.Totals
	rep.lastTotals = rs.agent.Totals()
	rs.agents = []string{}
	for _, d := range opts.Agents {
		rs.agents = append(rs.agents, d.Name)
	}
	return rs, nil
}

// start creates or restores the agent session with its journal; the
// session's MCP servers start once it exists.
func (rs *runSession) start(o *Options, opts agent.Options, cfg config.Config) error {
	st := frontend.OpenStore(cfg, o.Log)
	var err error
	if o.Resume == "" {
		if rs.journal, err = st.Create(store.Meta{ID: rs.id, Cwd: o.Cwd}); err != nil {
			o.Log.Warn("session will not be saved", "session", rs.id, "err", err)
			rs.journal = nil
		} else {
			opts.Journal = rs.journal
		}
		rs.agent, err = agent.NewSession(opts)
	} else {
		rs.agent, err = rs.restore(st, opts)
	}
	if err != nil {
		if rs.journal != nil {
			rs.journal.Close()
		}
		return err
	}
	if o.ApprovalMode != "" {
		mode, _ := agentMode(o.ApprovalMode) // checked by Options.Check
		if err := rs.agent.SetMode(mode); err != nil {
			rs.close(o)
			return fmt.Errorf("%w: %w", ErrUsage, err)
		}
	}
	if rs.mcp != nil {
		rs.mcp.Start(context.Background())
	}
	return nil
}

// restore brings back a stored session to continue it.
func (rs *runSession) restore(st *store.Store, opts agent.Options) (*agent.Session, error) {
	_, recs, err := st.Load(rs.id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("cannot resume %s: %w", rs.id, errNoSession)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read session %s: %w", rs.id, err)
	}
	if rs.journal, err = st.Append(rs.id); err != nil {
		return nil, fmt.Errorf("cannot reopen session %s: %w", rs.id, err)
	}
	opts.Journal = rs.journal
	a, _, err := agent.Restore(opts, recs)
	return a, err
}

// errNoSession is why --resume failed.
var errNoSession = errors.New("no stored session with this id")
