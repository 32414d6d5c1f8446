package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// MCPServer is one MCP server in settings, in Gemini CLI's shape: a
// command (stdio), a url (SSE) or an httpUrl (streamable HTTP); type
// ("stdio", "sse", "http") overrides what the fields imply. The one type
// for reading (tools/mcp.ParseServers) and writing (`companion mcp add`).
type MCPServer struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	URL     string            `json:"url,omitempty"`
	HTTPURL string            `json:"httpUrl,omitempty"`
	Type    string            `json:"type,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Timeout bounds one call, in milliseconds.
	Timeout      float64  `json:"timeout,omitempty"`
	Trust        bool     `json:"trust,omitempty"`
	IncludeTools []string `json:"includeTools,omitempty"`
	ExcludeTools []string `json:"excludeTools,omitempty"`
}

// editSettings applies change to the JSON object in path, keeping every
// other setting, and writes it back.
func editSettings(path string, change func(doc map[string]any) error) error {
	doc := map[string]any{}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("settings %s are not valid JSON: %w", path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := change(doc); err != nil {
		return err
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// AddMCPServer adds or replaces server name in the settings file at path.
func AddMCPServer(path, name string, s MCPServer) error {
	if name == "" {
		return errors.New("an MCP server needs a name")
	}
	if (s.Command == "") == (s.URL == "" && s.HTTPURL == "") {
		return errors.New("an MCP server needs either a command or a URL")
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return err
	}
	var entry map[string]any
	json.Unmarshal(raw, &entry)
	return editSettings(path, func(doc map[string]any) error {
		servers, _ := doc["mcpServers"].(map[string]any)
		if servers == nil {
			servers = map[string]any{}
		}
		servers[name] = entry
		doc["mcpServers"] = servers
		return nil
	})
}

// RemoveMCPServer deletes server name from the settings file at path.
func RemoveMCPServer(path, name string) error {
	return editSettings(path, func(doc map[string]any) error {
		servers, _ := doc["mcpServers"].(map[string]any)
		if _, ok := servers[name]; !ok {
			return fmt.Errorf("no MCP server named %q in %s", name, path)
		}
		delete(servers, name)
		return nil
	})
}

// ListMCPServers returns the servers in the settings file at path, by name.
func ListMCPServers(path string) (map[string]MCPServer, []string, error) {
	var doc struct {
		MCPServers map[string]MCPServer `json:"mcpServers"`
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("settings %s are not valid JSON: %w", path, err)
	}
	names := make([]string, 0, len(doc.MCPServers))
	for n := range doc.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	return doc.MCPServers, names, nil
}
