package agent

import (
	"context"
	"strings"
)

// mcpAuthorizer is what /mcp auth uses of the MCP servers; *mcp.Manager
// implements it.
type mcpAuthorizer interface {
	Authorize(ctx context.Context, name string) (string, error)
}

// mcpCommand is /mcp: the servers' description, or with "auth NAME" the
// start of a server's OAuth authorization (the URL to open).
func (s commands) mcpCommand(ctx context.Context, arg string) string {
	if s.opts.MCP == nil {
		return "No MCP servers are configured."
	}
	sub, name, _ := strings.Cut(strings.TrimSpace(arg), " ")
	if sub != "auth" {
		return s.opts.MCP.Describe()
	}
	name = strings.TrimSpace(name)
	a, ok := s.opts.MCP.(mcpAuthorizer)
	if !ok || name == "" {
		return "Usage: /mcp auth NAME (an HTTP or SSE server that uses OAuth)."
	}
	out, err := a.Authorize(ctx, name)
	if err != nil {
		return "Cannot authorise " + name + ": " + err.Error()
	}
	return out
}
