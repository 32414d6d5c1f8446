package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"companion/mcpclient"
	"companion/tools"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// mcpTool adapts one server tool to tools.Tool.
type mcpTool struct {
	srv    *server
	tool   mcpgo.Tool
	name   string
	schema json.RawMessage
}

// newMCPTool adapts tool of s under the model-facing name.
func newMCPTool(s *server, tool mcpgo.Tool, name string) *mcpTool {
	schema, err := json.Marshal(tool.InputSchema)
	if err != nil || len(tool.InputSchema.Type) == 0 {
		schema = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return &mcpTool{srv: s, tool: tool, name: name, schema: schema}
}

// Name is mcp_<server>_<tool>, sanitised and unique.
func (t *mcpTool) Name() string { return t.name }

// MCPOrigin names the server and the tool's name on it (tools.MCPOrigin).
func (t *mcpTool) MCPOrigin() (server, tool string) { return t.srv.cfg.Name, t.tool.Name }

// Description is the server's description of the tool.
func (t *mcpTool) Description() string {
	if d := strings.TrimSpace(t.tool.Description); d != "" {
		return d
	}
	return fmt.Sprintf("Tool %q of MCP server %q.", t.tool.Name, t.srv.cfg.Name)
}

// Schema is the tool's inputSchema.
func (t *mcpTool) Schema() json.RawMessage { return t.schema }

// Kind is other: what an MCP tool does is the server's business.
func (t *mcpTool) Kind() tools.Kind { return tools.KindOther }

// Prepare checks that args is a JSON object (the server validates the rest).
func (t *mcpTool) Prepare(_ *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	args = bytes.TrimSpace(args)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = json.RawMessage("{}")
	}
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, fmt.Errorf("%w: the arguments of %s must be a JSON object", tools.ErrInvalidArgs, t.name)
	}
	return &mcpCall{t: t, args: obj, raw: args}, nil
}

// mcpCall is one call of an MCP tool.
type mcpCall struct {
	t    *mcpTool
	args map[string]any
	raw  json.RawMessage
}

// Title names the tool and its server.
func (c *mcpCall) Title() string {
	title := c.t.tool.Title
	if title == "" {
		title = c.t.tool.Name
	}
	return fmt.Sprintf("%s (%s MCP server)", title, c.t.srv.cfg.Name)
}

// Locations is empty: the files an MCP tool touches are unknown.
func (c *mcpCall) Locations() []tools.Location { return nil }

// Confirmation is the server/tool card, or nil for a server the user
// trusts while the workspace is trusted: in an untrusted workspace every
// server's tools ask.
func (c *mcpCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	if c.t.srv.cfg.Trust && c.t.srv.m.workspaceTrusted() {
		return nil, nil
	}
	var args bytes.Buffer
	if json.Indent(&args, c.raw, "", "  ") != nil {
		args.Reset()
		args.Write(c.raw)
	}
	return &tools.Confirmation{
		Type:      tools.ConfirmMCP,
		Title:     fmt.Sprintf("Run %q from MCP server %q", c.t.tool.Name, c.t.srv.cfg.Name),
		Server:    c.t.srv.cfg.Name,
		Tool:      c.t.tool.Name,
		Arguments: args.String(),
	}, nil
}

// Execute calls the tool, bounded by the server's timeout and ctx. Failures
// of the server (not ready, crashed, timed out) are error results.
func (c *mcpCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	s := c.t.srv
	conn, err := s.live()
	if err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	timeout := s.cfg.timeout()
	callCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := conn.client.CallTool(callCtx, c.t.tool.Name, c.args)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		what := fmt.Sprintf("MCP tool %q of server %q", c.t.tool.Name, s.cfg.Name)
		return tools.ErrorResult(callError(conn, what, callCtx, timeout, err).Error()), nil
	}
	return convertResult(res), nil
}

// callError explains a failed request to a server (what: "MCP tool x of
// server y") in words for the model. A transport failure marks the
// connection dead so that the supervisor reconnects.
func callError(conn *conn, what string, callCtx context.Context, timeout time.Duration, err error) error {
	if errors.Is(callCtx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%s did not answer within %s; the call was cancelled: %w", what, timeout, context.DeadlineExceeded)
	}
	// A client closed under the call is a connection that died (the
	// supervisor closes it as soon as the server exits).
	if errors.Is(err, mcpclient.ErrTransport) || errors.Is(err, mcpclient.ErrClosed) {
		err = conn.explain(err)
		conn.fail(err)
		return fmt.Errorf("%s failed: the server stopped or the connection broke; it is being restarted: %w", what, err)
	}
	return fmt.Errorf("%s failed: %w", what, err)
}
