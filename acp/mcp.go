package acp

import (
	"context"
	"log/slog"

	"companion/agent"
	"companion/config"
	"companion/frontend"
	"companion/tools/mcp"
)

// mcpServers gathers a session's MCP servers: the settings', then those
// the editor sent with session/new, load or resume, which win on a name
// clash.
func mcpServers(cfg config.Config, fromEditor []MCPServer, log *slog.Logger) []mcp.ServerConfig {
	extra := make([]mcp.ServerConfig, 0, len(fromEditor))
	for _, s := range fromEditor {
		extra = append(extra, editorServer(s))
	}
	return frontend.MCPServers(cfg, log, extra...)
}

// editorServer converts an ACP server entry (name/value arrays for env and
// headers).
func editorServer(s MCPServer) mcp.ServerConfig {
	switch {
	case s.Stdio != nil:
		env := map[string]string{}
		for _, e := range s.Stdio.Env {
			env[e.Name] = e.Value
		}
		return mcp.ServerConfig{Name: s.Stdio.Name, Command: s.Stdio.Command, Args: s.Stdio.Args, Env: env, Transport: mcp.TransportStdio}
	case s.HTTP != nil:
		return mcp.ServerConfig{Name: s.HTTP.Name, URL: s.HTTP.URL, Headers: headers(s.HTTP.Headers), Transport: mcp.TransportHTTP}
	case s.SSE != nil:
		return mcp.ServerConfig{Name: s.SSE.Name, URL: s.SSE.URL, Headers: headers(s.SSE.Headers), Transport: mcp.TransportSSE}
	}
	return mcp.ServerConfig{}
}

func headers(hs []HTTPHeader) map[string]string {
	m := map[string]string{}
	for _, h := range hs {
		m[h.Name] = h.Value
	}
	return m
}

// startMCP starts a session's MCP servers in the background; session/new
// does not wait for them. When a server's tools or prompts change, the
// editor gets the new command list; when a server fails (each new reason
// once), the user is told. Servers may ask the user through the client's
// forms when it has them.
func (c *connState) startMCP(servers []mcp.ServerConfig, sink *updates, a func() *agent.Session) agent.MCPServers {
	if len(servers) == 0 {
		return nil
	}
	var m *mcp.Manager
	reported := map[string]string{} // server → the failure already reported; touched by OnChange only
	m = mcp.NewManager(servers, mcp.Options{Log: c.srv.log, ClientName: c.srv.opts.Name, ClientVersion: c.srv.opts.Version,
		Elicit: elicitor(sink.conn, sink.id, c.clientCaps()),
		OnChange: func() {
			if s := a(); s != nil {
				sink.Emit(context.Background(), agent.CommandsChanged{Commands: s.Commands()})
			}
			for _, st := range m.Status() {
				if st.LastError != "" && st.LastError != reported[st.Name] {
					reported[st.Name] = st.LastError
					sink.mcpFailure(st.Name, st.LastError)
				}
			}
		}})
	m.Start(context.Background())
	return m
}
