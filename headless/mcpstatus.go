package headless

import (
	"sync"

	"companion/tools/mcp"
)

// mcpWatch follows a session's MCP servers: it reports each new failure of
// a server once, as a notice.
type mcpWatch struct {
	rep *reporter
	m   *mcp.Manager

	mu       sync.Mutex
	reported map[string]string // server → the failure already reported
}

// changed is the manager's OnChange callback.
func (w *mcpWatch) changed() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.reported == nil {
		w.reported = map[string]string{}
	}
	for _, st := range w.m.Status() {
		if st.LastError != "" && st.LastError != w.reported[st.Name] {
			w.reported[st.Name] = st.LastError
			w.rep.system("notice", map[string]any{"level": "warning", "server": st.Name,
				"message": "MCP server " + st.Name + " failed: " + st.LastError})
		}
	}
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
