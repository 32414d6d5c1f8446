package host

import "companion/tools/mcp"

// newMCP makes the manager of a session's MCP servers; open starts it once
// the agent session exists. When a server's tools or prompts change, the
// observer gets the new command list; when a server fails, each new
// reason once.
func (h *Host) newMCP(servers []mcp.ServerConfig, s *Session) *mcp.Manager {
	var m *mcp.Manager
	// reported is each server's failure already reported; OnChange calls
	// come one at a time, after Start.
	reported := map[string]string{}
	m = mcp.NewManager(servers, mcp.Options{Log: h.log, ClientName: h.opts.Name, ClientVersion: h.opts.Version,
		Elicit: s.Ports.Elicit,
		OnChange: func() {
			obs := s.Ports.Observer
			if obs == nil {
				return
			}
			obs.CommandsChanged(s.Agent.Commands())
			for _, st := range m.Status() {
				if st.LastError != "" && st.LastError != reported[st.Name] {
					reported[st.Name] = st.LastError
					obs.MCPFailed(st.Name, st.LastError)
				}
			}
		}})
	return m
}
