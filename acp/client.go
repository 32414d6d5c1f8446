package acp

import (
	"context"
	"errors"
	"fmt"

	"companion/rpc"
)

// ErrNotSupported is returned when the client did not advertise the
// capability a method needs; the agent then falls back to local work.
var ErrNotSupported = errors.New("the client does not support this method")

// Client calls the editor's ACP methods on behalf of one session. It never
// calls a method the client did not advertise in initialize.
type Client struct {
	conn *rpc.Conn
	id   SessionID
	caps ClientCapabilities
}

// NewClient returns the client proxy for session id.
func NewClient(conn *rpc.Conn, id SessionID, caps ClientCapabilities) *Client {
	return &Client{conn: conn, id: id, caps: caps}
}

// CanReadFiles reports whether fs/read_text_file may be called.
func (c *Client) CanReadFiles() bool { return c.caps.Fs.ReadTextFile }

// CanWriteFiles reports whether fs/write_text_file may be called.
func (c *Client) CanWriteFiles() bool { return c.caps.Fs.WriteTextFile }

// CanRunTerminals reports whether terminal/* may be called.
func (c *Client) CanRunTerminals() bool { return c.caps.Terminal }

// RequestPermission asks the user about a tool call. Any session may ask.
func (c *Client) RequestPermission(ctx context.Context, call ToolCallUpdate, opts []PermissionOption) (*RequestPermissionResponse, error) {
	var resp RequestPermissionResponse
	err := c.conn.Call(ctx, MethodSessionRequestPermission,
		&RequestPermissionRequest{SessionID: c.id, ToolCall: call, Options: opts}, &resp)
	return &resp, wrap(MethodSessionRequestPermission, err)
}

// ReadTextFile reads a file as the editor sees it, unsaved changes
// included. line (1-based) and limit are optional when 0.
func (c *Client) ReadTextFile(ctx context.Context, path string, line, limit int) (string, error) {
	if !c.CanReadFiles() {
		return "", ErrNotSupported
	}
	req := &ReadTextFileRequest{SessionID: c.id, Path: path}
	if line > 0 {
		req.Line = &line
	}
	if limit > 0 {
		req.Limit = &limit
	}
	var resp ReadTextFileResponse
	err := c.conn.Call(ctx, MethodFsReadTextFile, req, &resp)
	return resp.Content, wrap(MethodFsReadTextFile, err)
}

// WriteTextFile writes a file through the editor, which creates it if
// missing.
func (c *Client) WriteTextFile(ctx context.Context, path, content string) error {
	if !c.CanWriteFiles() {
		return ErrNotSupported
	}
	err := c.conn.Call(ctx, MethodFsWriteTextFile, &WriteTextFileRequest{SessionID: c.id, Path: path, Content: content}, nil)
	return wrap(MethodFsWriteTextFile, err)
}

// CreateTerminal starts a command in an editor terminal.
func (c *Client) CreateTerminal(ctx context.Context, req CreateTerminalRequest) (TerminalID, error) {
	if !c.CanRunTerminals() {
		return "", ErrNotSupported
	}
	req.SessionID = c.id
	var resp CreateTerminalResponse
	err := c.conn.Call(ctx, MethodTerminalCreate, &req, &resp)
	return resp.TerminalID, wrap(MethodTerminalCreate, err)
}

// TerminalOutput returns a terminal's output so far and its exit status.
func (c *Client) TerminalOutput(ctx context.Context, id TerminalID) (*TerminalOutputResponse, error) {
	var resp TerminalOutputResponse
	return &resp, c.terminalCall(ctx, MethodTerminalOutput, id, &resp)
}

// WaitForTerminalExit blocks until the terminal's command exits.
func (c *Client) WaitForTerminalExit(ctx context.Context, id TerminalID) (*WaitForTerminalExitResponse, error) {
	var resp WaitForTerminalExitResponse
	return &resp, c.terminalCall(ctx, MethodTerminalWaitForExit, id, &resp)
}

// KillTerminal kills the command; the terminal stays readable.
func (c *Client) KillTerminal(ctx context.Context, id TerminalID) error {
	return c.terminalCall(ctx, MethodTerminalKill, id, nil)
}

// ReleaseTerminal kills the command if running and frees the terminal.
func (c *Client) ReleaseTerminal(ctx context.Context, id TerminalID) error {
	return c.terminalCall(ctx, MethodTerminalRelease, id, nil)
}

func (c *Client) terminalCall(ctx context.Context, method string, id TerminalID, result any) error {
	if !c.CanRunTerminals() {
		return ErrNotSupported
	}
	params := map[string]any{"sessionId": c.id, "terminalId": id}
	return wrap(method, c.conn.Call(ctx, method, params, result))
}

func wrap(method string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", method, err)
}
