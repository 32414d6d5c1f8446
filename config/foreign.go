package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Settings written for Gemini CLI and Claude Code are read where they mean
// something here (see README, "For Gemini CLI and Claude Code users"):
//
//   - Gemini CLI's settings.json: model (or model.name), mcpServers,
//     context.fileName (or contextFileName), hooks, tools.exclude (deny
//     rules), tools.allowed (allow rules), tools.core (the only tools that
//     may run) and general.defaultApprovalMode;
//   - Claude Code's settings.json and settings.local.json: permissions
//     (allow, ask and deny rules in its syntax, which tools/policy reads;
//     defaultMode) and hooks.
//
// Every other key is listed in Config.Unread, shown by `companion config
// show` and once at start-up, so nothing is dropped without a word.

// ClaudeUserSettingsPath is Claude Code's user settings file in home.
func ClaudeUserSettingsPath(home string) string {
	return filepath.Join(home, ".claude", "settings.json")
}

// ClaudeProjectSettingsPaths are Claude Code's project settings files:
// the shared one, then the local one.
func ClaudeProjectSettingsPaths(root string) []string {
	return []string{filepath.Join(root, ".claude", "settings.json"), filepath.Join(root, ".claude", "settings.local.json")}
}

// foreign is what companion takes from a Gemini CLI or Claude Code
// settings file.
type foreign struct {
	Model           string
	MCPServers      json.RawMessage
	MemoryFileNames []string
	Hooks           json.RawMessage
	// Permissions are the file's rules, with their origins.
	Permissions Permissions
	// Mode is the approval mode the file sets, in companion's names.
	Mode string
	// Unread lists the file's keys companion does not read ("ui.theme").
	Unread []string
}

// geminiRead are the keys of a Gemini CLI settings file companion reads.
var geminiRead = []string{"$schema", "model", "mcpServers", "contextFileName", "context.fileName", "hooks",
	"tools.exclude", "tools.allowed", "tools.core", "excludeTools", "allowedTools", "coreTools",
	"general.defaultApprovalMode"}

// claudeRead are the keys of a Claude Code settings file companion reads.
var claudeRead = []string{"$schema", "permissions.allow", "permissions.ask", "permissions.deny",
	"permissions.defaultMode", "hooks"}

// geminiModes maps Gemini CLI's approval modes to companion's.
var geminiModes = map[string]string{"default": "default", "auto_edit": "auto_edit", "autoEdit": "auto_edit",
	"yolo": "yolo", "plan": "plan"}

// claudeModes maps Claude Code's permission modes to companion's.
var claudeModes = map[string]string{"default": "default", "acceptEdits": "auto_edit", "plan": "plan",
	"bypassPermissions": "yolo"}

// decodeGemini reads a Gemini CLI settings file's text.
func decodeGemini(path string, data []byte, getenv func(string) string) (foreign, error) {
	var f foreign
	var s struct {
		Model           json.RawMessage `json:"model"`
		MCPServers      json.RawMessage `json:"mcpServers"`
		ContextFileName json.RawMessage `json:"contextFileName"`
		Context         struct {
			FileName json.RawMessage `json:"fileName"`
		} `json:"context"`
		Hooks json.RawMessage `json:"hooks"`
		Tools struct {
			Exclude []string `json:"exclude"`
			Allowed []string `json:"allowed"`
			Core    []string `json:"core"`
		} `json:"tools"`
		ExcludeTools []string `json:"excludeTools"`
		AllowedTools []string `json:"allowedTools"`
		CoreTools    []string `json:"coreTools"`
		General      struct {
			DefaultApprovalMode string `json:"defaultApprovalMode"`
		} `json:"general"`
	}
	if err := decodeSettings(path, data, getenv, &s); err != nil {
		return f, err
	}
	f.MCPServers, f.Hooks = s.MCPServers, s.Hooks
	if json.Unmarshal(s.Model, &f.Model) != nil {
		var obj struct {
			Name string `json:"name"`
		}
		json.Unmarshal(s.Model, &obj)
		f.Model = obj.Name
	}
	for _, raw := range []json.RawMessage{s.Context.FileName, s.ContextFileName} {
		if len(f.MemoryFileNames) == 0 && json.Unmarshal(raw, &f.MemoryFileNames) != nil {
			var one string
			if json.Unmarshal(raw, &one) == nil && one != "" {
				f.MemoryFileNames = []string{one}
			}
		}
	}
	f.Permissions = Permissions{Deny: append(s.Tools.Exclude, s.ExcludeTools...),
		Allow: append(s.Tools.Allowed, s.AllowedTools...), Only: append(s.Tools.Core, s.CoreTools...)}
	f.Mode = s.General.DefaultApprovalMode
	return f, f.finish(path, data, "general.defaultApprovalMode", geminiModes, geminiRead)
}

// decodeClaude reads a Claude Code settings file's text.
func decodeClaude(path string, data []byte, getenv func(string) string) (foreign, error) {
	var f foreign
	var s struct {
		Permissions struct {
			Permissions
			DefaultMode string `json:"defaultMode"`
		} `json:"permissions"`
		Hooks json.RawMessage `json:"hooks"`
	}
	if err := decodeSettings(path, data, getenv, &s); err != nil {
		return f, err
	}
	f.Permissions, f.Hooks, f.Mode = s.Permissions.Permissions, s.Hooks, s.Permissions.DefaultMode
	return f, f.finish(path, data, "permissions.defaultMode", claudeModes, claudeRead)
}

// finish translates the file's approval mode (the setting key) with
// modes, and notes the rules' origins and the keys read leaves out.
func (f *foreign) finish(path string, data []byte, key string, modes map[string]string, read []string) error {
	f.Permissions.noteOrigins(path, data)
	f.Unread = unreadKeys(data, read)
	if f.Mode == "" {
		return nil
	}
	m, ok := modes[f.Mode]
	if !ok {
		return fmt.Errorf("%s: %s %q is not one of %s", path, key, f.Mode, strings.Join(slices.Sorted(maps.Keys(modes)), ", "))
	}
	f.Mode = m
	return nil
}

// unreadKeys lists the keys of a settings text that read does not name:
// top-level keys, and the members of a top-level object as "key.member"
// when read names some of its members.
func unreadKeys(data []byte, read []string) []string {
	var top map[string]json.RawMessage
	if decodeSettings("", data, nil, &top) != nil {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(top)) {
		if slices.Contains(read, k) {
			continue
		}
		var inner map[string]json.RawMessage
		partly := slices.ContainsFunc(read, func(r string) bool { return strings.HasPrefix(r, k+".") })
		if !partly || json.Unmarshal(top[k], &inner) != nil {
			out = append(out, k)
			continue
		}
		for _, m := range slices.Sorted(maps.Keys(inner)) {
			if !slices.Contains(read, k+"."+m) {
				out = append(out, k+"."+m)
			}
		}
	}
	return out
}

// noteOrigins records, for each of p's rules without one, the file and
// line it is written on ("path:line"), so a rule that names no tool is
// reported where the user can find it.
func (p *Permissions) noteOrigins(path string, data []byte) {
	for _, list := range [][]string{p.Allow, p.Ask, p.Deny, p.Only} {
		for _, r := range list {
			if _, ok := p.Origins[r]; ok {
				continue
			}
			if p.Origins == nil {
				p.Origins = map[string]string{}
			}
			quoted, _ := json.Marshal(r)
			line := 0
			if i := bytes.Index(data, quoted); i >= 0 {
				line = 1 + bytes.Count(data[:i], []byte("\n"))
			}
			p.Origins[r] = fmt.Sprintf("%s:%d", path, line)
		}
	}
}

// add appends q's rules to p's, keeping the origins of both.
func (p Permissions) add(q Permissions) Permissions {
	out := Permissions{
		Allow: append(slices.Clone(p.Allow), q.Allow...),
		Ask:   append(slices.Clone(p.Ask), q.Ask...),
		Deny:  append(slices.Clone(p.Deny), q.Deny...),
		Only:  p.Only,
	}
	if len(out.Only) == 0 {
		out.Only = q.Only
	}
	if len(p.Origins)+len(q.Origins) > 0 {
		out.Origins = maps.Clone(q.Origins)
		if out.Origins == nil {
			out.Origins = map[string]string{}
		}
		maps.Copy(out.Origins, p.Origins)
	}
	return out
}

// empty reports whether p has no rule at all.
func (p Permissions) empty() bool {
	return len(p.Allow)+len(p.Ask)+len(p.Deny)+len(p.Only) == 0
}

// unreadNote is the notice for a file's unread keys, "" when none.
func unreadNote(path string, keys []string) string {
	if len(keys) == 0 {
		return ""
	}
	return path + ": not supported by companion, ignored: " + strings.Join(keys, ", ")
}
