package acp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"

	"companion/agent"
	"companion/agent/store"
	"companion/config"
	"companion/frontend"
	"companion/rpc"
	"companion/tools"
)

// Config option ids.
const (
	configMode    SessionConfigID = "mode"
	configModel   SessionConfigID = "model"
	configThought SessionConfigID = "thought_level"
)

// session is one ACP session: the agent session and what the wire needs.
type session struct {
	id      SessionID
	agent   *agent.Session
	updates *updates
	// journal records the session; nil when it cannot be saved.
	journal *store.Writer
	// announced is closed once the command list went out after the reply
	// that opened the session (see announce).
	announced chan struct{}
}

// announce sends the session's slash commands once the reply that opened
// it (session/new, load or resume) is out, then marks the session
// announced. Prompts wait for that, so the editor always has the commands
// before a turn's first update.
func (s *session) announce(ctx context.Context) {
	rpc.AfterReply(ctx, func() {
		s.updates.Emit(context.Background(), agent.CommandsChanged{Commands: s.agent.Commands()})
		close(s.announced)
	})
}

// close ends the agent session and its journal.
func (s *session) close() {
	s.agent.Close()
	if s.journal != nil {
		if err := s.journal.Close(); err != nil {
			s.updates.log.Warn("closing session journal", "session", s.id, "err", err)
		}
	}
}

// SessionNew validates the directories, builds an agent session with a
// fresh journal and registers it. MCP servers are accepted; connecting them
// comes later.
func (c *connState) SessionNew(ctx context.Context, conn *rpc.Conn, p *NewSessionRequest) (*NewSessionResponse, error) {
	if _, err := sessionRoots(p.Cwd, p.AdditionalDirectories); err != nil {
		return nil, err
	}
	id := newSessionID()
	journal, err := c.store().Create(store.Meta{ID: string(id), Cwd: p.Cwd, AdditionalDirectories: p.AdditionalDirectories})
	if err != nil {
		c.srv.log.Warn("session will not be saved", "session", id, "err", err)
		journal = nil
	}
	s, _, err := c.buildSession(ctx, conn, id, p.Cwd, p.AdditionalDirectories, p.MCPServers, journal, nil)
	if err != nil {
		if journal != nil {
			journal.Close()
		}
		return nil, err
	}
	s.announce(ctx)
	return &NewSessionResponse{SessionID: id, Modes: modeState(s.agent), ConfigOptions: configOptions(s.agent)}, nil
}

// buildSession makes the agent session for id, new (recs nil) or restored
// from its records, and registers it. It returns the events to replay.
func (c *connState) buildSession(ctx context.Context, conn *rpc.Conn, id SessionID, cwd string, extra []string,
	editorMCP []MCPServer, journal *store.Writer, recs []store.Record) (*session, []agent.Event, error) {
	roots, err := sessionRoots(cwd, extra)
	if err != nil {
		return nil, nil, err
	}
	cfg, trusted, err := frontend.SessionConfig(c.config(), roots.Primary())
	if err != nil {
		return nil, nil, rpc.Errorf(rpc.CodeInvalidParams, "%v", err)
	}
	m, err := c.srv.opts.Model(ctx, cfg)
	if err != nil {
		return nil, nil, rpc.Errorf(rpc.CodeInternalError, "cannot start the model: %v", err)
	}
	caps := c.clientCaps()
	sink := &updates{conn: conn, id: id, log: c.srv.log, compaction: caps.Session != nil && caps.Session.Compaction != nil,
		notices: caps.Session != nil && caps.Session.Notices != nil}
	opts, err := c.agentOptions(conn, id, roots, cfg, trusted)
	if err != nil {
		return nil, nil, err
	}
	opts.Model, opts.Sink = m, sink
	if journal != nil {
		opts.Journal = journal
	}
	var live atomic.Pointer[agent.Session]
	opts.MCP = c.startMCP(mcpServers(cfg, editorMCP, c.srv.log), sink, live.Load)
	var a *agent.Session
	var events []agent.Event
	if recs == nil {
		a, err = agent.NewSession(opts)
	} else {
		a, events, err = agent.Restore(opts, recs)
	}
	if err != nil {
		if opts.MCP != nil {
			opts.MCP.Close()
		}
		return nil, nil, err
	}
	live.Store(a)
	c.ide.start(roots.Primary())
	s := &session{id: id, agent: a, updates: sink, journal: journal, announced: make(chan struct{})}
	sink.options = func() []SessionConfigOption { return configOptions(a) }
	c.mu.Lock()
	c.sessions[id] = s
	c.mu.Unlock()
	return s, events, nil
}

// drop closes a live session and forgets it.
func (c *connState) drop(s *session) {
	c.mu.Lock()
	if c.sessions[s.id] == s {
		delete(c.sessions, s.id)
	}
	c.mu.Unlock()
	s.close()
}

// agentOptions gathers what an agent session needs from the editor and the
// settings: files, terminals, questions, and the permission policy.
func (c *connState) agentOptions(conn *rpc.Conn, id SessionID, roots *tools.Roots, cfg config.Config, trusted bool) (agent.Options, error) {
	opts, err := frontend.Options(frontend.Base{ID: string(id), Roots: roots, Config: cfg, Trusted: trusted,
		Tools: c.srv.opts.Tools(cfg), Log: c.srv.log})
	if err != nil {
		return agent.Options{}, rpc.Errorf(rpc.CodeInvalidParams, "%v", err)
	}
	client := NewClient(conn, id, c.clientCaps())
	opts.Files = &files{client: client}
	opts.Asker = &ideAsker{inner: &asker{client: client}, link: c.ide}
	if client.CanRunTerminals() {
		opts.Terminals = &terminals{client: client}
	}
	return opts, nil
}

// sessionRoots checks cwd and the additional directories: absolute,
// existing directories.
func sessionRoots(cwd string, extra []string) (*tools.Roots, error) {
	for _, d := range append([]string{cwd}, extra...) {
		if !filepath.IsAbs(d) {
			return nil, rpc.Errorf(rpc.CodeInvalidParams, "directory %q must be an absolute path", d)
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			return nil, rpc.Errorf(rpc.CodeInvalidParams, "directory %q does not exist or is not a directory", d)
		}
	}
	roots, err := tools.NewRoots(cwd, extra...)
	if err != nil {
		return nil, rpc.Errorf(rpc.CodeInvalidParams, "%v", err)
	}
	return roots, nil
}

func newSessionID() SessionID { return SessionID(frontend.NewSessionID()) }

// SessionClose cancels the session's work and forgets it.
func (c *connState) SessionClose(_ context.Context, _ *rpc.Conn, p *CloseSessionRequest) (*CloseSessionResponse, error) {
	s, err := c.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	c.drop(s)
	return &CloseSessionResponse{}, nil
}

// SessionSetMode switches the approval mode and tells config-option clients.
func (c *connState) SessionSetMode(ctx context.Context, _ *rpc.Conn, p *SetSessionModeRequest) (*SetSessionModeResponse, error) {
	s, err := c.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	if err := s.agent.SetMode(string(p.ModeID)); err != nil {
		return nil, rpc.Errorf(rpc.CodeInvalidParams, "%v", err)
	}
	s.updates.configOptions(ctx, configOptions(s.agent))
	return &SetSessionModeResponse{}, nil
}

// SessionSetConfigOption sets the mode or the model and answers the whole list.
func (c *connState) SessionSetConfigOption(ctx context.Context, _ *rpc.Conn, p *SetSessionConfigOptionRequest) (*SetSessionConfigOptionResponse, error) {
	s, err := c.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	if p.ValueID == nil {
		return nil, rpc.Errorf(rpc.CodeInvalidParams, "config option %q takes a string value", p.ConfigID)
	}
	value := string(p.ValueID.Value)
	switch p.ConfigID {
	case configMode:
		err = s.agent.SetMode(value)
		if err == nil {
			s.updates.currentMode(ctx, value)
		}
	case configModel:
		err = s.agent.SetModel(value)
	case configThought:
		err = s.agent.SetThoughtLevel(value)
	default:
		err = errors.New("unknown config option " + string(p.ConfigID))
	}
	if err != nil {
		return nil, rpc.Errorf(rpc.CodeInvalidParams, "%v", err)
	}
	return &SetSessionConfigOptionResponse{ConfigOptions: configOptions(s.agent)}, nil
}

// modeState is the legacy modes view of the session.
func modeState(a *agent.Session) *SessionModeState {
	st := &SessionModeState{CurrentModeID: SessionModeID(a.Mode())}
	for _, m := range agent.Modes() {
		st.AvailableModes = append(st.AvailableModes, SessionMode{ID: SessionModeID(m.ID), Name: m.Name, Description: m.Description})
	}
	return st
}

// configOptions is the session's complete config option list: mode first,
// then model.
func configOptions(a *agent.Session) []SessionConfigOption {
	var modes, models []SessionConfigSelectOption
	for _, m := range agent.Modes() {
		modes = append(modes, SessionConfigSelectOption{Value: SessionConfigValueID(m.ID), Name: m.Name, Description: m.Description})
	}
	for _, m := range a.Models() {
		models = append(models, SessionConfigSelectOption{Value: SessionConfigValueID(m), Name: m})
	}
	opts := []SessionConfigOption{
		{ID: configMode, Name: "Mode", Description: "How freely the agent may act without asking",
			Category: "mode", Select: &SessionConfigSelect{CurrentValue: SessionConfigValueID(a.Mode()),
				Options: SessionConfigSelectOptions{Ungrouped: modes}}},
		{ID: configModel, Name: "Model", Description: "The model that answers",
			Category: "model", Select: &SessionConfigSelect{CurrentValue: SessionConfigValueID(a.ModelName()),
				Options: SessionConfigSelectOptions{Ungrouped: models}}},
	}
	if a.ThinkingConfigurable() {
		var levels []SessionConfigSelectOption
		for _, l := range agent.ThoughtLevels() {
			levels = append(levels, SessionConfigSelectOption{Value: SessionConfigValueID(l.ID), Name: l.Name})
		}
		opts = append(opts, SessionConfigOption{ID: configThought, Name: "Thinking", Description: "How much the model may reason before answering",
			Category: "thought_level", Select: &SessionConfigSelect{CurrentValue: SessionConfigValueID(a.ThoughtLevel()),
				Options: SessionConfigSelectOptions{Ungrouped: levels}}})
	}
	return opts
}
