package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// Initialize performs the handshake: initialize with the client's info,
// protocol version and capabilities, then notifications/initialized. A
// SessionTransport learns the version the server chose.
func (c *Client) Initialize(ctx context.Context) (*mcp.InitializeResult, error) {
	caps := c.o.caps
	if _, ok := c.o.handlers[string(mcp.MethodElicitationCreate)]; ok && caps.Elicitation == nil {
		caps.Elicitation = &mcp.ElicitationCapability{Form: &struct{}{}}
	}
	params := struct {
		ProtocolVersion string                 `json:"protocolVersion"`
		ClientInfo      mcp.Implementation     `json:"clientInfo"`
		Capabilities    mcp.ClientCapabilities `json:"capabilities"`
	}{c.o.version, c.o.info, caps}
	var raw json.RawMessage
	if err := c.call(ctx, string(mcp.MethodInitialize), params, &raw); err != nil {
		return nil, err
	}
	var res mcp.InitializeResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("initialize: decoding the result: %w", err)
	}
	if !mcp.IsValidProtocolVersion(res.ProtocolVersion) {
		return nil, fmt.Errorf("initialize: the server chose protocol version %q, which this client does not speak", res.ProtocolVersion)
	}
	c.mu.Lock()
	c.caps, c.version = res.Capabilities, res.ProtocolVersion
	c.mu.Unlock()
	if st, ok := c.tr.(SessionTransport); ok {
		st.Initialized(res.ProtocolVersion)
	}
	if err := c.notify(ctx, string(mcp.MethodNotificationInitialized), nil); err != nil {
		return nil, err
	}
	return &res, nil
}

// Ping asks the server whether it is alive.
func (c *Client) Ping(ctx context.Context) error {
	var raw json.RawMessage
	return c.call(ctx, string(mcp.MethodPing), struct{}{}, &raw)
}

// maxPages bounds the pages a list call follows.
const maxPages = 1000

// listAll requests method page after page, following nextCursor, and
// hands each page's raw result to add, which returns the next cursor.
func (c *Client) listAll(ctx context.Context, method string, add func(json.RawMessage) (mcp.Cursor, error)) error {
	seen := map[mcp.Cursor]bool{}
	var cursor mcp.Cursor
	for range maxPages {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		var raw json.RawMessage
		if err := c.call(ctx, method, params, &raw); err != nil {
			return err
		}
		next, err := add(raw)
		if err != nil {
			return fmt.Errorf("%s: decoding the result: %w", method, err)
		}
		if next == "" {
			return nil
		}
		if seen[next] {
			return fmt.Errorf("%s: the server repeated the cursor %q", method, next)
		}
		seen[next], cursor = true, next
	}
	return fmt.Errorf("%s: more than %d pages", method, maxPages)
}

// ListTools lists every tool of the server, following pagination.
func (c *Client) ListTools(ctx context.Context) (*mcp.ListToolsResult, error) {
	out := &mcp.ListToolsResult{}
	err := c.listAll(ctx, string(mcp.MethodToolsList), func(raw json.RawMessage) (mcp.Cursor, error) {
		var page mcp.ListToolsResult
		err := json.Unmarshal(raw, &page)
		out.Tools = append(out.Tools, page.Tools...)
		return page.NextCursor, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListPrompts lists every prompt of the server, following pagination.
func (c *Client) ListPrompts(ctx context.Context) (*mcp.ListPromptsResult, error) {
	out := &mcp.ListPromptsResult{}
	err := c.listAll(ctx, string(mcp.MethodPromptsList), func(raw json.RawMessage) (mcp.Cursor, error) {
		var page mcp.ListPromptsResult
		err := json.Unmarshal(raw, &page)
		out.Prompts = append(out.Prompts, page.Prompts...)
		return page.NextCursor, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ListResources lists every resource of the server, following pagination.
func (c *Client) ListResources(ctx context.Context) (*mcp.ListResourcesResult, error) {
	out := &mcp.ListResourcesResult{}
	err := c.listAll(ctx, string(mcp.MethodResourcesList), func(raw json.RawMessage) (mcp.Cursor, error) {
		var page mcp.ListResourcesResult
		err := json.Unmarshal(raw, &page)
		out.Resources = append(out.Resources, page.Resources...)
		return page.NextCursor, err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CallTool calls tool name with args (a JSON object, or nil for none).
// A tool that failed is a result with IsError set, not an error.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	var raw json.RawMessage
	method := string(mcp.MethodToolsCall)
	if err := c.call(ctx, method, params, &raw); err != nil {
		return nil, err
	}
	res, err := mcp.ParseCallToolResult(&raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: decoding the result: %w", method, name, err)
	}
	return res, nil
}

// GetPrompt renders prompt name with args.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	params := map[string]any{"name": name}
	if args != nil {
		params["arguments"] = args
	}
	var raw json.RawMessage
	method := string(mcp.MethodPromptsGet)
	if err := c.call(ctx, method, params, &raw); err != nil {
		return nil, err
	}
	res, err := mcp.ParseGetPromptResult(&raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: decoding the result: %w", method, name, err)
	}
	return res, nil
}

// ReadResource reads the resource at uri.
func (c *Client) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	var raw json.RawMessage
	method := string(mcp.MethodResourcesRead)
	if err := c.call(ctx, method, map[string]any{"uri": uri}, &raw); err != nil {
		return nil, err
	}
	res, err := mcp.ParseReadResourceResult(&raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: decoding the result: %w", method, uri, err)
	}
	return res, nil
}

// Notify sends the server a notification of the client's own (such as
// notifications/roots/list_changed); params may be nil.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	return c.notify(ctx, method, params)
}
