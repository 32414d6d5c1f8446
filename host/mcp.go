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
	out, _ := mcpServers(cfg, log, extra...)
	return out
}

// mcpServers is MCPServers, also naming the servers that came from the
// project's settings (and were not replaced by the client's).
func mcpServers(cfg config.Config, log *slog.Logger, extra ...mcp.ServerConfig) ([]mcp.ServerConfig, map[string]bool) {
	byName := map[string]mcp.ServerConfig{}
	project := map[string]bool{}
	var order []string
	add := func(s mcp.ServerConfig, fromProject bool) {
		if _, ok := byName[s.Name]; !ok {
			order = append(order, s.Name)
		}
		byName[s.Name] = s
		project[s.Name] = fromProject
	}
	for i, raw := range []json.RawMessage{cfg.MCPServers, cfg.ProjectMCPServers} {
		if len(raw) == 0 {
			continue
		}
		servers, err := mcp.ParseServers(raw)
		if err != nil {
			log.Warn("some MCP servers in the settings were skipped", "err", err)
		}
		for _, s := range servers {
			if i == 1 {
				s.Trust = false // a project's server never skips the ask: "trust" is the user's to give
				s.Sampling = userOnlySampling(s.Sampling)
			}
			add(s, i == 1)
		}
	}
	for _, s := range extra {
		s.Sampling = userOnlySampling(s.Sampling)
		add(s, false)
	}
	out := make([]mcp.ServerConfig, 0, len(order))
	for _, n := range order {
		out = append(out, byName[n])
	}
	return out, project
}

// userOnlySampling drops "allow" from a sampling policy that does not come
// from the user's settings: only the user may let a server use the model
// without asking.
func userOnlySampling(policy string) string {
	if policy == mcp.SamplingAllow {
		return ""
	}
	return policy
}
