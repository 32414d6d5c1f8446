package host

import (
	"encoding/json"
	"log/slog"

	"companion/config"
	"companion/tools/mcp"
)

// MCPServers gathers a session's MCP servers: those in the settings (user,
// then project; Gemini CLI's when companion's settings name none), then
// extra (from the client: the editor or the SDK), which win on a name
// clash. Bad entries in the settings are logged and skipped.
func MCPServers(cfg config.Config, log *slog.Logger, extra ...mcp.ServerConfig) []mcp.ServerConfig {
	byName := map[string]mcp.ServerConfig{}
	var order []string
	add := func(s mcp.ServerConfig) {
		if _, ok := byName[s.Name]; !ok {
			order = append(order, s.Name)
		}
		byName[s.Name] = s
	}
	for _, raw := range []json.RawMessage{cfg.MCPServers, cfg.ProjectMCPServers} {
		if len(raw) == 0 {
			continue
		}
		servers, err := mcp.ParseServers(raw)
		if err != nil {
			log.Warn("some MCP servers in the settings were skipped", "err", err)
		}
		for _, s := range servers {
			add(s)
		}
	}
	for _, s := range extra {
		add(s)
	}
	out := make([]mcp.ServerConfig, 0, len(order))
	for _, n := range order {
		out = append(out, byName[n])
	}
	return out
}
