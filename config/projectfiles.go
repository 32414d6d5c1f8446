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
)

// A project's settings come from up to three files in its root, read only
// in a trusted workspace and held back together until the user accepts
// them (see ApplyProject):
//   - .companion/settings.json, companion's own (config.Project);
//   - .gemini/settings.json, Gemini CLI's: its model, MCP servers and
//     memory file names, where companion's file leaves them unset;
//   - .mcp.json, Claude Code's project MCP servers (mcpServers with
//     command, args, env, type, url, headers).
//
// On a server name in more than one, the earlier file wins. A project's
// server never skips the permission ask ("trust" is honoured in the
// user's settings only).

// GeminiProjectSettingsPath is Gemini CLI's project settings file.
func GeminiProjectSettingsPath(root string) string {
	return filepath.Join(root, ".gemini", "settings.json")
}

// ClaudeMCPPath is Claude Code's project MCP servers file.
func ClaudeMCPPath(root string) string { return filepath.Join(root, ".mcp.json") }

// projectSource is one project file as read.
type projectSource struct {
	path string
	data []byte
}

// readOptional reads path; a missing file is nil data.
func readOptional(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read project settings: %w", err)
	}
	return data, nil
}

// readProjectSources reads root's project files into p, returning the
// files found (for the hash) and the source of each setting.
func readProjectSources(root string, p *Project, getenv func(string) string) ([]projectSource, map[string]string, error) {
	var found []projectSource
	sources := map[string]string{}
	own := ProjectSettingsPath(root)
	data, err := readOptional(own)
	if err != nil {
		return nil, nil, err
	}
	if data != nil {
		if err := decodeSettings(own, data, getenv, p); err != nil {
			return nil, nil, fmt.Errorf("project settings %w", err)
		}
		p.Permissions.noteOrigins(own, data)
		found = append(found, projectSource{own, data})
		noteKeys(sources, data, own)
	}
	for _, src := range []struct {
		path   string
		decode func(string, []byte, func(string) string) (foreign, error)
	}{{GeminiProjectSettingsPath(root), decodeGemini}, {ClaudeProjectSettingsPaths(root)[0], decodeClaude},
		{ClaudeProjectSettingsPaths(root)[1], decodeClaude}} {
		if data, err = readOptional(src.path); err != nil {
			return nil, nil, err
		}
		if data == nil {
			continue
		}
		f, err := src.decode(src.path, data, getenv)
		if err != nil {
			return nil, nil, fmt.Errorf("project settings %w", err)
		}
		found = append(found, projectSource{src.path, data})
		fillProjectFrom(p, f, src.path, sources)
	}
	mcpPath := ClaudeMCPPath(root)
	if data, err = readOptional(mcpPath); err != nil {
		return nil, nil, err
	}
	if data != nil {
		var doc struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		}
		if err := decodeSettings(mcpPath, data, getenv, &doc); err != nil {
			return nil, nil, fmt.Errorf("project MCP servers %w", err)
		}
		found = append(found, projectSource{mcpPath, data})
		addServers(p, doc.MCPServers, mcpPath, sources)
	}
	return found, sources, nil
}

// fillProjectFrom fills what companion's project file left unset from
// Gemini CLI's or Claude Code's, and adds their permission rules.
func fillProjectFrom(p *Project, f foreign, path string, sources map[string]string) {
	if p.Model == "" && f.Model != "" {
		p.Model, sources["model"] = f.Model, path
	}
	if len(p.MemoryFileNames) == 0 && len(f.MemoryFileNames) > 0 {
		p.MemoryFileNames, sources["memoryFileNames"] = f.MemoryFileNames, path
	}
	if empty(p.Hooks) && !empty(f.Hooks) {
		p.Hooks, sources["hooks"] = f.Hooks, path
	}
	if p.ApprovalMode == "" && f.Mode != "" {
		p.ApprovalMode, sources["approvalMode"] = f.Mode, path
	}
	if !f.Permissions.empty() {
		p.Permissions = p.Permissions.add(f.Permissions)
		sources["permissions"] = joinSource(sources["permissions"], path)
	}
	p.Unread = append(p.Unread, unreadNote(path, f.Unread))
	addServers(p, f.MCPServers, path, sources)
}

// addServers adds to p the servers of more (read from path) that p does
// not name yet, noting where they came from.
func addServers(p *Project, more json.RawMessage, path string, sources map[string]string) {
	merged, added := mergeServers(p.MCPServers, more)
	if len(added) == 0 {
		return
	}
	p.MCPServers = merged
	sources["mcpServers"] = joinSource(sources["mcpServers"], path)
	if p.from == nil {
		p.from = map[string]string{}
	}
	rel := filepath.Base(path)
	if d := filepath.Base(filepath.Dir(path)); d == ".gemini" {
		rel = d + "/" + rel
	}
	for _, n := range added {
		p.from[n] = rel
	}
}

// joinSource adds path to a source naming several files.
func joinSource(have, path string) string {
	if have == "" {
		return path
	}
	return have + ", " + path
}

// mergeServers adds the servers of more that base does not name and
// returns the names added. Unreadable input is left to ParseServers to
// report: base is kept as it is.
func mergeServers(base, more json.RawMessage) (json.RawMessage, []string) {
	if empty(more) {
		return base, nil
	}
	var b, m map[string]json.RawMessage
	if !empty(base) && json.Unmarshal(base, &b) != nil {
		return base, nil
	}
	if json.Unmarshal(more, &m) != nil {
		return base, nil
	}
	if b == nil {
		b = map[string]json.RawMessage{}
	}
	var added []string
	for _, name := range slices.Sorted(maps.Keys(m)) {
		if _, ok := b[name]; !ok {
			b[name] = m[name]
			added = append(added, name)
		}
	}
	if len(added) == 0 {
		return base, nil
	}
	out, err := json.Marshal(b)
	if err != nil {
		return base, nil
	}
	return out, added
}

// projectHash names the content of the project files found: the hash of
// companion's own file alone when it is the only one (as accepted before
// the other files were read), else of every file's path and content.
func projectHash(root string, found []projectSource) string {
	switch {
	case len(found) == 0:
		return ""
	case len(found) == 1 && found[0].path == ProjectSettingsPath(root):
		return contentHash(found[0].data)
	}
	var all bytes.Buffer
	for _, f := range found {
		fmt.Fprintf(&all, "%s\x00%d\x00", filepath.Base(filepath.Dir(f.path))+"/"+filepath.Base(f.path), len(f.data))
		all.Write(f.data)
	}
	return contentHash(all.Bytes())
}

// KeepAccepted runs edit, a change the user makes to root's project
// settings themselves (such as `companion mcp add`). When the files held
// nothing the user had not accepted before, their new content is recorded
// as accepted, so the user's own change is not held back; files that
// were waiting for acceptance keep waiting.
func (c *Config) KeepAccepted(root string, edit func() error) error {
	before, err := ReadProjectFile(root)
	if err != nil {
		return err
	}
	wasAccepted := before.Hash == "" || len(before.Project.Powers()) == 0 || c.Accepted(before.Path, before.Hash)
	if err := edit(); err != nil || !wasAccepted {
		return err
	}
	after, err := ReadProjectFile(root)
	if err != nil || after.Hash == "" {
		return err
	}
	return c.Accept(after.Path, after.Hash)
}
