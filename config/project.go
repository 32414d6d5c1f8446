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

// Project is what a project's settings may set: its permission rules.
type Project struct {
	Permissions Permissions `json:"permissions,omitzero"`
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
	if err := json.Unmarshal(data, &p); err != nil {
		return p, fmt.Errorf("project settings %s are not valid JSON: %w", ProjectSettingsPath(root), err)
	}
	return p, nil
}

// AddProjectAllowRule appends rule to permissions.allow in root's project
// settings, keeping every other setting in the file as it was.
func AddProjectAllowRule(root, rule string) error {
	path := ProjectSettingsPath(root)
	doc := map[string]any{}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("project settings %s are not valid JSON: %w", path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	perms, _ := doc["permissions"].(map[string]any)
	if perms == nil {
		perms = map[string]any{}
	}
	var allow []any
	if a, ok := perms["allow"].([]any); ok {
		allow = a
	}
	if slices.Contains(allow, any(rule)) {
		return nil
	}
	perms["allow"] = append(allow, rule)
	doc["permissions"] = perms
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
