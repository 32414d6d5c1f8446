package acp

import (
	"context"
	"errors"

	"companion/agent"
	"companion/host"
	"companion/rpc"
)

// Config option ids.
const (
	configMode    SessionConfigID = "mode"
	configModel   SessionConfigID = "model"
	configThought SessionConfigID = "thought_level"
)

// session is one ACP session as a handler sees it: the host's session,
// its agent session and the sink that speaks for it on the wire.
type session struct {
	id      SessionID
	host    *host.Session
	agent   *agent.Session
	updates *updates
}

// SessionNew validates the directories and has the host build a session
// with a fresh journal. MCP servers start in the background.
func (c *connState) SessionNew(ctx context.Context, conn *rpc.Conn, p *NewSessionRequest) (*NewSessionResponse, error) {
	id := SessionID(host.NewSessionID())
	req := c.request(id, p.Cwd, p.AdditionalDirectories, p.MCPServers)
	hs, err := c.host.New(ctx, req, c.ports(conn, id))
	if err != nil {
		return nil, hostError(err)
	}
	s := c.view(hs)
	s.updates.announce(ctx)
	return &NewSessionResponse{SessionID: s.id, Modes: modeState(s.agent), ConfigOptions: configOptions(s.agent)}, nil
}

// request is a session request from the editor's parameters.
func (c *connState) request(id SessionID, cwd string, extra []string, editorMCP []MCPServer) host.Request {
	return host.Request{ID: string(id), Cwd: cwd, Extra: extra, MCP: mcpServers(editorMCP)}
}

// ports are what the editor offers session id: files, terminals when it
// runs them, permission questions, forms for MCP servers and ask_user, its
// language features when it offers them (_companion/lsp), and the
// session's updates as its sink and observer.
func (c *connState) ports(conn *rpc.Conn, id SessionID) host.Ports {
	caps := c.clientCaps()
	client := NewClient(conn, id, caps)
	u := c.newUpdates(conn, id)
	p := host.Ports{Files: &files{client: client}, Asker: &asker{client: client}, Sink: u, Observer: u,
		Elicit: elicitor(conn, id, caps), Questions: questioner(conn, id, caps)}
	if client.CanRunTerminals() {
		p.Terminals = &terminals{client: client}
	}
	if offersLanguage(caps) {
		p.Language = &language{conn: conn, id: id}
	}
	return p
}

// newUpdates is the sink of a session about to be opened.
func (c *connState) newUpdates(conn *rpc.Conn, id SessionID) *updates {
	caps := c.clientCaps()
	return &updates{conn: conn, id: id, log: c.srv.log, compaction: caps.Session != nil && caps.Session.Compaction != nil,
		notices: caps.Session != nil && caps.Session.Notices != nil, announced: make(chan struct{})}
}

// view is the handlers' view of a host session. Every session of the
// connection's host was opened with ports, so its sink is an *updates.
func (c *connState) view(hs *host.Session) *session {
	u := hs.Ports.Sink.(*updates)
	return &session{id: SessionID(hs.ID), host: hs, agent: hs.Agent, updates: u}
}

// hostError maps the host's errors to the wire: bad requests are invalid
// params, a missing stored session is not found, the rest internal.
func hostError(err error) error {
	switch {
	case errors.Is(err, host.ErrInvalid), errors.Is(err, host.ErrRules):
		return rpc.Errorf(rpc.CodeInvalidParams, "%v", err)
	case errors.Is(err, host.ErrNotFound):
		return &rpc.Error{Code: rpc.CodeResourceNotFound, Message: err.Error()}
	}
	return rpc.Errorf(rpc.CodeInternalError, "%v", err)
}

// SessionClose cancels the session's work and forgets it.
func (c *connState) SessionClose(_ context.Context, _ *rpc.Conn, p *CloseSessionRequest) (*CloseSessionResponse, error) {
	s, err := c.session(p.SessionID)
	if err != nil {
		return nil, err
	}
	c.host.Drop(s.host)
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

// modeState is the legacy modes view of the session; an untrusted
// workspace lists only the modes that ask before edits and commands.
func modeState(a *agent.Session) *SessionModeState {
	st := &SessionModeState{CurrentModeID: SessionModeID(a.Mode())}
	for _, m := range a.AvailableModes() {
		st.AvailableModes = append(st.AvailableModes, SessionMode{ID: SessionModeID(m.ID), Name: m.Name, Description: m.Description})
	}
	return st
}

// configOptions is the session's complete config option list: mode first,
// then model.
func configOptions(a *agent.Session) []SessionConfigOption {
	var modes, models []SessionConfigSelectOption
	for _, m := range a.AvailableModes() {
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
