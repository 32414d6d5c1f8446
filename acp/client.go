package acp

import (
	"context"
	"errors"

	"companion/rpc"
)

// ErrNotSupported is returned when the client did not advertise the
// capability a method needs; the agent then falls back to local work.
var ErrNotSupported = errors.New("the client does not support this method")

// Client calls the editor's ACP methods on behalf of one session. It never
// calls a method the client did not advertise in initialize.
type Client struct {
	call clientMethods
	id   SessionID
	caps ClientCapabilities
}

// NewClient returns the client proxy for session id.
func NewClient(conn *rpc.Conn, id SessionID, caps ClientCapabilities) *Client {
	return &Client{call: clientMethods{conn: conn}, id: id, caps: caps}
}

// CanReadFiles reports whether fs/read_text_file may be called.
func (c *Client) CanReadFiles() bool { return c.caps.Fs.ReadTextFile }

// CanWriteFiles reports whether fs/write_text_file may be called.
func (c *Client) CanWriteFiles() bool { return c.caps.Fs.WriteTextFile }

// CanRunTerminals reports whether terminal/* may be called.
func (c *Client) CanRunTerminals() bool { return c.caps.Terminal }

// RequestPermission asks the user about a tool call. Any session may ask.
func (c *Client) RequestPermission(ctx context.Context, call ToolCallUpdate, opts []PermissionOption) (*RequestPermissionResponse, error) {
	return c.call.SessionRequestPermission(ctx, &RequestPermissionRequest{SessionID: c.id, ToolCall: call, Options: opts})
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
	resp, err := c.call.FsReadTextFile(ctx, req)
	if err != nil {
		return "", err
	}
	return resp.Content, nil
}

// WriteTextFile writes a file through the editor, which creates it if
// missing.
func (c *Client) WriteTextFile(ctx context.Context, path, content string) error {
	if !c.CanWriteFiles() {
		return ErrNotSupported
	}
	_, err := c.call.FsWriteTextFile(ctx, &WriteTextFileRequest{SessionID: c.id, Path: path, Content: content})
	return err
}

// CreateTerminal starts a command in an editor terminal.
func (c *Client) CreateTerminal(ctx context.Context, req CreateTerminalRequest) (TerminalID, error) {
	if !c.CanRunTerminals() {
		return "", ErrNotSupported
	}
	req.SessionID = c.id
	resp, err := c.call.TerminalCreate(ctx, &req)
	if err != nil {
		return "", err
	}
	return resp.TerminalID, nil
}

// TerminalOutput returns a terminal's output so far and its exit status.
func (c *Client) TerminalOutput(ctx context.Context, id TerminalID) (*TerminalOutputResponse, error) {
	if !c.CanRunTerminals() {
		return nil, ErrNotSupported
	}
	return c.call.TerminalOutput(ctx, &TerminalOutputRequest{SessionID: c.id, TerminalID: id})
}

// WaitForTerminalExit blocks until the terminal's command exits.
func (c *Client) WaitForTerminalExit(ctx context.Context, id TerminalID) (*WaitForTerminalExitResponse, error) {
	if !c.CanRunTerminals() {
		return nil, ErrNotSupported
	}
	return c.call.TerminalWaitForExit(ctx, &WaitForTerminalExitRequest{SessionID: c.id, TerminalID: id})
}

// KillTerminal kills the command; the terminal stays readable.
func (c *Client) KillTerminal(ctx context.Context, id TerminalID) error {
	if !c.CanRunTerminals() {
		return ErrNotSupported
	}
	_, err := c.call.TerminalKill(ctx, &KillTerminalRequest{SessionID: c.id, TerminalID: id})
	return err
}

// ReleaseTerminal kills the command if running and frees the terminal.
func (c *Client) ReleaseTerminal(ctx context.Context, id TerminalID) error {
	if !c.CanRunTerminals() {
		return ErrNotSupported
	}
	_, err := c.call.TerminalRelease(ctx, &ReleaseTerminalRequest{SessionID: c.id, TerminalID: id})
	return err
}
