package mcpclient

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// do runs one request and turns its error into the package's.
func do[T any](c *Client, method string, f func() (T, error)) (T, error) {
	v, err := f()
	if err != nil {
		var zero T
		return zero, fmt.Errorf("%s: %w", method, c.classify(err))
	}
	return v, nil
}

// ListTools lists every tool of the server, following pagination.
func (c *Client) ListTools(ctx context.Context) (*mcp.ListToolsResult, error) {
	return do(c, string(mcp.MethodToolsList), func() (*mcp.ListToolsResult, error) {
		return c.mc.ListTools(ctx, mcp.ListToolsRequest{})
	})
}

// ListPrompts lists every prompt of the server, following pagination.
func (c *Client) ListPrompts(ctx context.Context) (*mcp.ListPromptsResult, error) {
	return do(c, string(mcp.MethodPromptsList), func() (*mcp.ListPromptsResult, error) {
		return c.mc.ListPrompts(ctx, mcp.ListPromptsRequest{})
	})
}

// ListResources lists every resource of the server, following pagination.
func (c *Client) ListResources(ctx context.Context) (*mcp.ListResourcesResult, error) {
	return do(c, string(mcp.MethodResourcesList), func() (*mcp.ListResourcesResult, error) {
		return c.mc.ListResources(ctx, mcp.ListResourcesRequest{})
	})
}

// CallTool calls tool name with args (a JSON object, or nil for none).
// A tool that failed is a result with IsError set, not an error.
func (c *Client) CallTool(ctx context.Context, name string, args any) (*mcp.CallToolResult, error) {
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	return do(c, string(mcp.MethodToolsCall)+" "+name, func() (*mcp.CallToolResult, error) {
		return c.mc.CallTool(ctx, req)
	})
}

// GetPrompt renders prompt name with args.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*mcp.GetPromptResult, error) {
	req := mcp.GetPromptRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	return do(c, string(mcp.MethodPromptsGet)+" "+name, func() (*mcp.GetPromptResult, error) {
		return c.mc.GetPrompt(ctx, req)
	})
}

// ReadResource reads the resource at uri.
func (c *Client) ReadResource(ctx context.Context, uri string) (*mcp.ReadResourceResult, error) {
	req := mcp.ReadResourceRequest{}
	req.Params.URI = uri
	return do(c, string(mcp.MethodResourcesRead)+" "+uri, func() (*mcp.ReadResourceResult, error) {
		return c.mc.ReadResource(ctx, req)
	})
}

// RootsChanged tells the server the client's roots changed
// (notifications/roots/list_changed).
func (c *Client) RootsChanged(ctx context.Context) error {
	_, err := do(c, string(mcp.MethodNotificationRootsListChanged), func() (struct{}, error) {
		return struct{}{}, c.mc.RootListChanges(ctx)
	})
	return err
}
