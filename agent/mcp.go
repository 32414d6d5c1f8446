package agent

import (
	"context"
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

// Tools are the tools the model may call now: the built-in ones, sorted
// by name, then those of the MCP servers connected so far (ToolNames
// waits for them first). /tools and /help list them.
func (s *Session) Tools() []tools.Tool {
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

// ToolNames lists the tools the model may call, built-in then MCP, after
// giving MCP servers their short time to connect (once per session).
func (s *Session) ToolNames(ctx context.Context) []string {
	s.waitMCP(ctx)
	all := s.Tools()
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.Name()
	}
	return names
}
