package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"companion/tools"
	"companion/tools/mcp"
)

// mcpReadyWait bounds how long the first prompt waits for MCP servers
// still connecting; slower ones join later, their tools answering with an
// error until then.
const mcpReadyWait = 2 * time.Second

// MCPServers is what the agent uses of a session's MCP servers;
// *mcp.Manager implements it.
type MCPServers interface {
	Tools() []tools.Tool
	WaitReady(ctx context.Context, d time.Duration) bool
	Describe() string
	Prompts() []mcp.Prompt
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (string, error)
	Close() error
}

// builtinTools is the registry's tools and the session's own
// delegate_to_agent and plan-mode tools, sorted by name so requests stay
// stable (and the model's prompt cache keeps working).
func (s *Session) builtinTools() []tools.Tool {
	all := append(s.opts.Tools.All(), s.planTools...)
	if s.delegate != nil {
		all = append(all, s.delegate)
	}
	slices.SortFunc(all, func(a, b tools.Tool) int { return strings.Compare(a.Name(), b.Name()) })
	return all
}

// allTools is the built-in tools and the MCP servers' tools now.
func (s *Session) allTools() []tools.Tool {
	all := s.builtinTools()
	if s.opts.MCP != nil {
		all = append(all, s.opts.MCP.Tools()...)
	}
	return all
}

// findTool looks a tool up among the built-in and MCP tools.
func (s *Session) findTool(name string) (tools.Tool, bool) {
	if t, ok := s.opts.Tools.Get(name); ok {
		return t, true
	}
	if s.delegate != nil && s.delegate.Name() == name {
		return s.delegate, true
	}
	for _, t := range s.planTools {
		if t.Name() == name {
			return t, true
		}
	}
	if s.opts.MCP == nil {
		return nil, false
	}
	i := slices.IndexFunc(s.opts.MCP.Tools(), func(t tools.Tool) bool { return t.Name() == name })
	if i < 0 {
		return nil, false
	}
	return s.opts.MCP.Tools()[i], true
}

// waitMCP gives MCP servers a short time to connect before the first
// model request, once per session.
func (s *Session) waitMCP(ctx context.Context) {
	if first := !s.mcpWaited.Swap(true); first && s.opts.MCP != nil {
		s.opts.MCP.WaitReady(ctx, mcpReadyWait)
	}
}

// mcpCommands are the MCP servers' prompts as slash commands
// (server:prompt).
func (s commands) mcpCommands() []Command {
	if s.opts.MCP == nil {
		return nil
	}
	var out []Command
	for _, p := range s.opts.MCP.Prompts() {
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
		out = append(out, Command{Name: p.Server + ":" + p.Name, Description: desc, Hint: hint})
	}
	return out
}

// mcpPrompt expands an MCP prompt command: arguments are name=value
// words, or plain words given to the prompt's arguments in order.
func (s commands) mcpPrompt(ctx context.Context, name, args string) (string, bool, error) {
	if s.opts.MCP == nil {
		return "", false, nil
	}
	for _, p := range s.opts.MCP.Prompts() {
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
		text, err := s.opts.MCP.GetPrompt(ctx, p.Server, p.Name, values)
		if err != nil {
			return "", true, fmt.Errorf("MCP prompt %s: %w", name, err)
		}
		return text, true, nil
	}
	return "", false, nil
}

// ToolNames lists the tools the model may call, built-in then MCP, after
// giving MCP servers their short time to connect (once per session).
func (s *Session) ToolNames(ctx context.Context) []string {
	s.waitMCP(ctx)
	all := s.allTools()
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.Name()
	}
	return names
}

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
