package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
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
	Timeout float64 `json:"timeout,omitempty"`
	// Description says what the server is for (kept in the file
	// as `companion mcp add --description` and Gemini CLI write it).
	Description  string   `json:"description,omitempty"`
	Trust        bool     `json:"trust,omitempty"`
	IncludeTools []string `json:"includeTools,omitempty"`
	ExcludeTools []string `json:"excludeTools,omitempty"`
	// Sandbox false runs a stdio server outside the command sandbox (when
	// the "sandbox" setting is on). Only the user's settings and the
	// client may turn it off: a project's server is sandboxed whatever it
	// says.
	Sandbox *bool `json:"sandbox,omitempty"`
	// SandboxNetwork false cuts a sandboxed stdio server off the network;
	// servers have network by default.
	SandboxNetwork *bool `json:"sandboxNetwork,omitempty"`
	// Sampling says what happens when the server asks to use the
	// session's model: "ask" (the default: a permission card; refused
	// where no one can answer), "allow" (no card, and allowed in headless
	// runs) or "deny". Only the user's settings may say "allow".
	Sampling string `json:"sampling,omitempty"`
	// OAuth is Gemini CLI's oauth block for a remote server.
	OAuth *MCPOAuth `json:"oauth,omitempty"`
}

// MCPOAuth is a remote server's OAuth settings, as Gemini CLI writes
// them. Empty fields are discovered from the server; Enabled false (when
// the block is present) turns OAuth off for the server.
type MCPOAuth struct {
	Enabled          *bool    `json:"enabled,omitempty"`
	ClientID         string   `json:"clientId,omitempty"`
	ClientSecret     string   `json:"clientSecret,omitempty"`
	AuthorizationURL string   `json:"authorizationUrl,omitempty"`
	TokenURL         string   `json:"tokenUrl,omitempty"`
	Scopes           []string `json:"scopes,omitempty"`
	RedirectURI      string   `json:"redirectUri,omitempty"`
}

// editSettings applies change to the JSON object in path, keeping every
// other setting, and writes it back. The file may have comments and
// trailing commas: the top-level settings change makes are patched into
// the text, so the comments around the others stay. Variables are not
// expanded: the file keeps ${VAR} as written.
func editSettings(path string, change func(doc map[string]any) error) error {
	doc := map[string]any{}
	data, err := os.ReadFile(path)
	if err == nil {
		if err := decodeSettings(path, data, nil, &doc); err != nil {
			return fmt.Errorf("settings %w", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	before, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	if err := change(doc); err != nil {
		return err
	}
	out, err := patchSettings(data, before, doc)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// patchSettings is the text of the settings file data (nil: none yet)
// changed from the object before (as JSON) to after. Plain JSON is
// written afresh, indented; in a file with comments or trailing commas
// the top-level keys that changed are added, replaced or removed in place.
func patchSettings(data, before []byte, after map[string]any) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 || json.Valid(data) {
		out, err := json.MarshalIndent(after, "", "  ")
		return append(out, '\n'), err
	}
	var old map[string]json.RawMessage
	if err := json.Unmarshal(before, &old); err != nil {
		return nil, err
	}
	var ops []map[string]any
	for _, k := range slices.Sorted(maps.Keys(after)) {
		now, err := json.Marshal(after[k])
		if err != nil {
			return nil, err
		}
		if prev, ok := old[k]; !ok {
			ops = append(ops, map[string]any{"op": "add", "path": pointer(k), "value": json.RawMessage(now)})
		} else if !bytes.Equal(prev, now) {
			ops = append(ops, map[string]any{"op": "replace", "path": pointer(k), "value": json.RawMessage(now)})
		}
	}
	for k := range old {
		if _, ok := after[k]; !ok {
			ops = append(ops, map[string]any{"op": "remove", "path": pointer(k)})
		}
	}
	if len(ops) == 0 {
		return data, nil
	}
	val, err := hujson.Parse(data)
	if err != nil {
		return nil, err
	}
	patch, err := json.Marshal(ops)
	if err != nil {
		return nil, err
	}
	if err := val.Patch(patch); err != nil {
		return nil, fmt.Errorf("edit settings: %w", err)
	}
	val.Format()
	return val.Pack(), nil
}

// pointer is the JSON pointer of a top-level key.
func pointer(k string) string {
	return "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
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
	if err := decodeSettings(path, data, nil, &doc); err != nil {
		return nil, nil, fmt.Errorf("settings %w", err)
	}
	names := make([]string, 0, len(doc.MCPServers))
	for n := range doc.MCPServers {
		names = append(names, n)
	}
	sort.Strings(names)
	return doc.MCPServers, names, nil
}
