package command

import (
	"context"
	"fmt"
	"strings"

	"companion/agent"
)

// mcpCommands are the MCP servers' prompts as slash commands
// (server:prompt).
func (c *commands) mcpCommands() []agent.Command {
	if c.cfg.mcp == nil {
		return nil
	}
	var out []agent.Command
	for _, p := range c.cfg.mcp.Prompts() {
		hint := ""
		if len(p.Arguments) > 0 {
			var names []string
			for _, a := range p.Arguments {
				names = append(names, a.Name+"=…")
			}
			hint = strings.Join(names, " ")
		}
		desc := p.Description
		if desc == "" {
			desc = "Prompt " + p.Name + " from MCP server " + p.Server
		}
		out = append(out, agent.Command{Name: p.Server + ":" + p.Name, Description: desc, Hint: hint})
	}
	return out
}

// mcpPrompt expands an MCP prompt command: arguments are name=value
// words, or plain words given to the prompt's arguments in order.
func (c *commands) mcpPrompt(ctx context.Context, name, args string) (string, bool, error) {
	if c.cfg.mcp == nil {
		return "", false, nil
	}
	for _, p := range c.cfg.mcp.Prompts() {
		if p.Server+":"+p.Name != name {
			continue
		}
		values := map[string]string{}
		for i, w := range strings.Fields(args) {
			if k, v, ok := strings.Cut(w, "="); ok {
				values[k] = v
			} else if i < len(p.Arguments) {
				values[p.Arguments[i].Name] = w
			}
		}
		text, err := c.cfg.mcp.GetPrompt(ctx, p.Server, p.Name, values)
		if err != nil {
			return "", true, fmt.Errorf("MCP prompt %s: %w", name, err)
		}
		return text, true, nil
	}
	return "", false, nil
}

// mcpAuthorizer is what /mcp auth uses of the MCP servers; *mcp.Manager
// implements it.
type mcpAuthorizer interface {
	Authorize(ctx context.Context, name string) (string, error)
}

// mcpCommand is /mcp: the servers' description, or with "auth NAME" the
// start of a server's OAuth authorization (the URL to open).
func (c *commands) mcpCommand(ctx context.Context, arg string) string {
	if c.cfg.mcp == nil {
		return "No MCP servers are configured."
	}
	sub, name, _ := strings.Cut(strings.TrimSpace(arg), " ")
	if sub != "auth" {
		return c.cfg.mcp.Describe()
	}
	name = strings.TrimSpace(name)
	a, ok := c.cfg.mcp.(mcpAuthorizer)
	if !ok || name == "" {
		return "Usage: /mcp auth NAME (an HTTP or SSE server that uses OAuth)."
	}
	out, err := a.Authorize(ctx, name)
	if err != nil {
		return "Cannot authorise " + name + ": " + err.Error()
	}
	return out
}
