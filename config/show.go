package config

import (
	"encoding/json"
	"maps"
	"slices"
)

// Layers names the order settings are laid over each other, each layer
// winning over the one before:
//
//  1. the user's settings: companion's settings.json, then Gemini CLI's
//     ~/.gemini/settings.json and Claude Code's ~/.claude/settings.json
//     for what companion's leaves unset, their permission rules added
//     (see foreign.go);
//  2. the project's, in a trusted workspace only: .companion/settings.json,
//     then .gemini/settings.json, .claude/settings.json,
//     .claude/settings.local.json and .mcp.json for what it leaves unset,
//     their rules added (their powers wait for acceptance, see
//     ApplyProject);
//  3. the environment (GEMINI_API_KEY, GEMINI_MODEL, …), with the .env
//     files under it: the project's (trusted only), then the user's;
//  4. the command line's flags.
//
// An untrusted workspace's files (settings, .env) are not read at all.
func Layers() []string {
	return []string{
		"user settings (companion's settings.json, then ~/.gemini/settings.json and ~/.claude/settings.json)",
		"project settings, trusted workspaces only (.companion/settings.json, then .gemini/settings.json, .claude/settings.json, .claude/settings.local.json and .mcp.json)",
		"environment (then the project's .env, trusted only, then ~/.env)",
		"command-line flags",
	}
}

// Setting is one top-level setting as Show reports it.
type Setting struct {
	Key string `json:"key"`
	// Value is the setting's value, secrets replaced by "(set)".
	Value any `json:"value"`
	// Source is where it came from: a file, "env NAME", a .env file,
	// "flag" or "default".
	Source string `json:"source"`
}

// Show lists c's settings with where each came from, sorted by key;
// unset settings are left out, and key values are never shown.
func (c Config) Show() []Setting {
	data, err := json.Marshal(c)
	if err != nil {
		return nil
	}
	var top map[string]any
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	for k, raw := range map[string]json.RawMessage{"projectMcpServers": c.ProjectMCPServers, "projectHooks": c.ProjectHooks,
		"projectLsp": c.ProjectLSP} {
		var v any
		if !empty(raw) && json.Unmarshal(raw, &v) == nil {
			top[k] = v
		}
	}
	out := make([]Setting, 0, len(top))
	for _, k := range slices.Sorted(maps.Keys(top)) {
		src := c.Sources[k]
		if src == "" {
			src = "default"
		}
		out = append(out, Setting{Key: k, Value: redactSetting(k, top[k]), Source: src})
	}
	return out
}

// redactSetting hides the secrets in a setting's value: API keys, and
// the values of MCP servers' env and headers and of OpenAI headers.
func redactSetting(key string, v any) any {
	switch key {
	case "apiKey":
		return "(set)"
	case "openai":
		m, _ := v.(map[string]any)
		if _, ok := m["apiKey"]; ok {
			m["apiKey"] = "(set)"
		}
		hideValues(m["headers"])
	case "mcpServers", "projectMcpServers", "lsp", "projectLsp":
		servers, _ := v.(map[string]any)
		for _, s := range servers {
			if s, ok := s.(map[string]any); ok {
				hideValues(s["env"])
				hideValues(s["headers"])
			}
		}
	}
	return v
}

// hideValues replaces every value of a JSON object with "(set)".
func hideValues(v any) {
	if m, ok := v.(map[string]any); ok {
		for k := range m {
			m[k] = "(set)"
		}
	}
}
