package acp

import (
	"companion/tools/mcp"
)

// mcpServers converts the MCP servers the editor sent with session/new,
// load or resume; the host adds them to the settings', and they win on a
// name clash.
func mcpServers(fromEditor []MCPServer) []mcp.ServerConfig {
	out := make([]mcp.ServerConfig, 0, len(fromEditor))
	for _, s := range fromEditor {
		out = append(out, editorServer(s))
	}
	return out
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
