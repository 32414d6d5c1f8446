package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// ProjectSettingsPath is where a project's settings live.
func ProjectSettingsPath(root string) string {
	return filepath.Join(root, ".companion", "settings.json")
}

// Project is what a project's settings (.companion/settings.json) may set.
// They apply only in trusted folders. Provider settings (keys, endpoints)
// stay user-level: a repository must not redirect the user's credentials.
type Project struct {
	Model                string          `json:"model,omitempty"`
	Models               []string        `json:"models,omitempty"`
	FallbackModel        string          `json:"fallbackModel,omitempty"`
	CompressionThreshold float64         `json:"compressionThreshold,omitempty"`
	MemoryFileNames      []string        `json:"memoryFileNames,omitempty"`
	MaxTurnRequests      int             `json:"maxTurnRequests,omitempty"`
	Permissions          Permissions     `json:"permissions,omitzero"`
	Hooks                json.RawMessage `json:"hooks,omitempty"`
	MCPServers           json.RawMessage `json:"mcpServers,omitempty"`
	// LSP are language servers; each runs a command, so it is a power.
	LSP json.RawMessage `json:"lsp,omitempty"`
	// ApprovalMode is the mode sessions start in; yolo and auto_edit
	// grant powers (Powers).
	ApprovalMode string `json:"approvalMode,omitempty"`
	// Unread are the notes on the keys of the project's Gemini CLI and
	// Claude Code files that companion does not support (unreadNote).
	Unread []string `json:"-"`
	// from names the file each MCP server came from when it is not
	// companion's own (ReadProjectFile), for Powers.
	from map[string]string
}

// WithProject returns c with the project's settings laid over it:
// scalars replace, permission rules add to the user's.
func (c Config) WithProject(p Project) Config {
	if p.Model != "" {
		c.Model = p.Model
	}
	if len(p.Models) > 0 {
		c.Models = p.Models
	}
	if p.FallbackModel != "" {
		c.FallbackModel = p.FallbackModel
	}
	if p.CompressionThreshold != 0 {
		c.CompressionThreshold = p.CompressionThreshold
	}
	if len(p.MemoryFileNames) > 0 {
		c.MemoryFileNames = p.MemoryFileNames
	}
	if p.MaxTurnRequests > 0 {
		c.MaxTurnRequests = p.MaxTurnRequests
	}
	if p.ApprovalMode != "" {
		c.ApprovalMode = p.ApprovalMode
	}
	c.Permissions = c.Permissions.add(p.Permissions)
	for _, note := range p.Unread {
		if note != "" && !slices.Contains(c.Unread, note) {
			c.Unread = append(slices.Clone(c.Unread), note)
		}
	}
	c.ProjectHooks = p.Hooks
	c.ProjectMCPServers = p.MCPServers
	c.ProjectLSP = p.LSP
	return c
}

// LoadProject reads root's project settings; a missing file is empty.
func LoadProject(root string) (Project, error) {
	var p Project
	data, err := os.ReadFile(ProjectSettingsPath(root))
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return p, fmt.Errorf("read project settings: %w", err)
	}
	if err := decodeSettings(ProjectSettingsPath(root), data, os.Getenv, &p); err != nil {
		return p, fmt.Errorf("project settings %w", err)
	}
	return p, nil
}

// AddProjectAllowRule appends rule to permissions.allow in root's project
// settings, keeping every other setting in the file as it was.
func AddProjectAllowRule(root, rule string) error {
	return editSettings(ProjectSettingsPath(root), func(doc map[string]any) error {
		perms, _ := doc["permissions"].(map[string]any)
		if perms == nil {
			perms = map[string]any{}
		}
		allow, _ := perms["allow"].([]any)
		if slices.Contains(allow, any(rule)) {
			return nil
		}
		perms["allow"] = append(allow, rule)
		doc["permissions"] = perms
		return nil
	})
}

// SaveProjectAllowRule is AddProjectAllowRule for a rule the user chose
// ("always allow in this project"). When the file held nothing the user
// had not accepted before, its new content is recorded as accepted, so
// the user's own rule does not hold the file back.
func (c *Config) SaveProjectAllowRule(root, rule string) error {
	before, err := ReadProjectFile(root)
	if err != nil {
		return err
	}
	wasAccepted := before.Hash == "" || len(before.Project.Powers()) == 0 || c.Accepted(before.Path, before.Hash)
	if err := AddProjectAllowRule(root, rule); err != nil {
		return err
	}
	if !wasAccepted {
		return nil
	}
	after, err := ReadProjectFile(root)
	if err != nil {
		return err
	}
	return c.Accept(after.Path, after.Hash)
}
