package acp

import (
	"context"
	"errors"
	"time"

	"companion/agent"
	"companion/agent/store"
	"companion/frontend"
	"companion/rpc"
)

// store returns the session store of the connection, opened on first
// use under the state directory.
func (c *connState) store() *store.Store {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sessionStore == nil {
		c.sessionStore = frontend.OpenStore(c.cfg, c.srv.log)
	}
	return c.sessionStore
}

// SessionLoad brings a stored session back and replays its whole
// conversation as session/update notifications before answering.
func (c *connState) SessionLoad(ctx context.Context, conn *rpc.Conn, p *LoadSessionRequest) (*LoadSessionResponse, error) {
	s, events, err := c.restore(ctx, conn, p.SessionID, p.Cwd, p.AdditionalDirectories, p.MCPServers)
	if err != nil {
		return nil, err
	}
	s.agent.Replay(ctx, events)
	s.announce(ctx)
	return &LoadSessionResponse{Modes: modeState(s.agent), ConfigOptions: configOptions(s.agent)}, nil
}

// SessionResume brings a stored session back without replaying it.
func (c *connState) SessionResume(ctx context.Context, conn *rpc.Conn, p *ResumeSessionRequest) (*ResumeSessionResponse, error) {
	s, _, err := c.restore(ctx, conn, p.SessionID, p.Cwd, p.AdditionalDirectories, p.MCPServers)
	if err != nil {
		return nil, err
	}
	s.announce(ctx)
	return &ResumeSessionResponse{Modes: modeState(s.agent), ConfigOptions: configOptions(s.agent)}, nil
}

// restore rebuilds a stored session and registers it, replacing a live
// session of the same id.
func (c *connState) restore(ctx context.Context, conn *rpc.Conn, id SessionID, cwd string, extra []string, editorMCP []MCPServer) (*session, []agent.Event, error) {
	if err := checkSessionID(id); err != nil {
		return nil, nil, err
	}
	st := c.store()
	_, recs, err := st.Load(string(id))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, &rpc.Error{Code: rpc.CodeResourceNotFound, Message: "session " + string(id) + " not found", Data: map[string]any{"sessionId": id}}
	}
	if err != nil {
		return nil, nil, rpc.Errorf(rpc.CodeInternalError, "cannot read session %s: %v", id, err)
	}
	if old, err := c.session(id); err == nil {
		c.drop(old)
	}
	journal, err := st.Append(string(id))
	if err != nil {
		return nil, nil, rpc.Errorf(rpc.CodeInternalError, "cannot reopen session %s: %v", id, err)
	}
	s, events, err := c.buildSession(ctx, conn, id, cwd, extra, editorMCP, journal, recs)
	if err != nil {
		journal.Close()
		return nil, nil, err
	}
	return s, events, nil
}

// SessionList pages through stored sessions, newest first.
func (c *connState) SessionList(_ context.Context, _ *rpc.Conn, p *ListSessionsRequest) (*ListSessionsResponse, error) {
	infos, next, err := c.store().List(store.ListOptions{Cwd: p.Cwd, Cursor: p.Cursor})
	if errors.Is(err, store.ErrBadCursor) {
		return nil, rpc.Errorf(rpc.CodeInvalidParams, "invalid cursor %q", p.Cursor)
	}
	if err != nil {
		return nil, rpc.Errorf(rpc.CodeInternalError, "cannot list sessions: %v", err)
	}
	resp := &ListSessionsResponse{Sessions: []SessionInfo{}, NextCursor: next}
	for _, in := range infos {
		info := SessionInfo{SessionID: SessionID(in.ID), Cwd: in.Cwd, AdditionalDirectories: in.AdditionalDirectories, Title: in.Title}
		if !in.UpdatedAt.IsZero() {
			info.UpdatedAt = in.UpdatedAt.UTC().Format(time.RFC3339)
		}
		resp.Sessions = append(resp.Sessions, info)
	}
	return resp, nil
}

// SessionDelete closes a live session and removes it from the store;
// unknown ids succeed, malformed ones answer -32602.
func (c *connState) SessionDelete(_ context.Context, _ *rpc.Conn, p *DeleteSessionRequest) (*DeleteSessionResponse, error) {
	if err := checkSessionID(p.SessionID); err != nil {
		return nil, err
	}
	if s, err := c.session(p.SessionID); err == nil {
		c.drop(s)
	}
	if err := c.store().Delete(string(p.SessionID)); err != nil {
		return nil, rpc.Errorf(rpc.CodeInternalError, "cannot delete session %s: %v", p.SessionID, err)
	}
	return &DeleteSessionResponse{}, nil
}
