package acp

import (
	"context"
	"errors"
	"time"

	"companion/agent"
	"companion/host"
	"companion/rpc"
)

// SessionLoad brings a stored session back and replays its whole
// conversation as session/update notifications before answering.
func (c *connState) SessionLoad(ctx context.Context, conn *rpc.Conn, p *LoadSessionRequest) (*LoadSessionResponse, error) {
	s, events, err := c.restore(ctx, conn, p.SessionID, p.Cwd, p.AdditionalDirectories, p.MCPServers)
	if err != nil {
		return nil, err
	}
	s.agent.Replay(ctx, events)
	s.updates.announce(ctx)
	return &LoadSessionResponse{Modes: modeState(s.agent), ConfigOptions: configOptions(s.agent)}, nil
}

// SessionResume brings a stored session back without replaying it.
func (c *connState) SessionResume(ctx context.Context, conn *rpc.Conn, p *ResumeSessionRequest) (*ResumeSessionResponse, error) {
	s, _, err := c.restore(ctx, conn, p.SessionID, p.Cwd, p.AdditionalDirectories, p.MCPServers)
	if err != nil {
		return nil, err
	}
	s.updates.announce(ctx)
	return &ResumeSessionResponse{Modes: modeState(s.agent), ConfigOptions: configOptions(s.agent)}, nil
}

// restore has the host rebuild a stored session, replacing a live
// session of the same id.
func (c *connState) restore(ctx context.Context, conn *rpc.Conn, id SessionID, cwd string, extra []string, editorMCP []MCPServer) (*session, []agent.Event, error) {
	if err := checkSessionID(id); err != nil {
		return nil, nil, err
	}
	hs, events, err := c.host.Restore(ctx, c.request(id, cwd, extra, editorMCP), c.ports(conn, id))
	if errors.Is(err, host.ErrNotFound) {
		return nil, nil, &rpc.Error{Code: rpc.CodeResourceNotFound, Message: err.Error(), Data: map[string]any{"sessionId": id}}
	}
	if err != nil {
		return nil, nil, hostError(err)
	}
	return c.view(hs), events, nil
}

// SessionList pages through stored sessions, newest first.
func (c *connState) SessionList(_ context.Context, _ *rpc.Conn, p *ListSessionsRequest) (*ListSessionsResponse, error) {
	infos, next, err := c.host.List(p.Cwd, p.Cursor)
	if err != nil {
		return nil, hostError(err)
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
	if err := c.host.Delete(string(p.SessionID)); err != nil {
		return nil, rpc.Errorf(rpc.CodeInternalError, "cannot delete session %s: %v", p.SessionID, err)
	}
	return &DeleteSessionResponse{}, nil
}
