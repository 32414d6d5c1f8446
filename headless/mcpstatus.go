package headless

import (
	"companion/agent"
	"companion/tools/mcp"
)

// mcpWatch follows a session's MCP servers for the host: it reports each
// new failure of a server as a notice.
type mcpWatch struct {
	rep *reporter
}

// Opened is part of host.Observer; a run needs nothing from it.
func (w *mcpWatch) Opened(*agent.Session) {}

// CommandsChanged is part of host.Observer; SDKs read commands at init.
func (w *mcpWatch) CommandsChanged([]agent.Command) {}

// MCPFailed reports a server's new failure.
func (w *mcpWatch) MCPFailed(server, reason string) {
	w.rep.system("notice", map[string]any{"level": "warning", "server": server,
		"message": "MCP server " + server + " failed: " + reason})
}

// serverStatus is one server in mcp_server_status and the init line.
type serverStatus struct {
	Name      string   `json:"name"`
	Status    string   `json:"status"`
	Error     string   `json:"error,omitempty"`
	Tools     []string `json:"tools"`
	Transport string   `json:"transport"`
}

// statuses reports every server of m (none when m is nil).
func statuses(m *mcp.Manager) []serverStatus {
	out := []serverStatus{}
	if m == nil {
		return out
	}
	for _, st := range m.Status() {
		s := serverStatus{Name: st.Name, Status: wireState(st.State), Error: st.LastError, Tools: st.Tools, Transport: string(st.Transport)}
		if s.Tools == nil {
			s.Tools = []string{}
		}
		out = append(out, s)
	}
	return out
}

// wireState names a server state as SDKs expect.
func wireState(s mcp.State) string {
	switch s {
	case mcp.StateReady:
		return "connected"
	case mcp.StateFailed, mcp.StateRestarting:
		return "failed" // a restarting server does not work now; its error says why
	}
	return "pending"
}
