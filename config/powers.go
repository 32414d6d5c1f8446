package config

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Powers lists what the project's settings grant beyond restricting: each
// allow rule, hook command, MCP server and memory file name, one phrase
// each ("allows run_shell_command(make)", "adds hook BeforeTool: ./x.sh",
// "adds MCP server db (node db.js)").
func (p Project) Powers() []string {
	var out []string
	for _, r := range p.Permissions.Allow {
		out = append(out, "allows "+r)
	}
	out = append(out, describeHooks(p.Hooks)...)
	out = append(out, describeMCP(p.MCPServers, p.from)...)
	out = append(out, describeLSP(p.LSP)...)
	if len(p.MemoryFileNames) > 0 {
		out = append(out, "reads instruction files named "+strings.Join(p.MemoryFileNames, ", "))
	}
	if unsafeMode(p.ApprovalMode) {
		out = append(out, "starts sessions in approval mode "+p.ApprovalMode)
	}
	return out
}

// withoutPowers is p with the parts Powers lists removed.
func (p Project) withoutPowers() Project {
	p.Permissions.Allow = nil
	p.Hooks, p.MCPServers, p.LSP, p.MemoryFileNames = nil, nil, nil, nil
	if unsafeMode(p.ApprovalMode) {
		p.ApprovalMode = ""
	}
	return p
}

// empty reports whether a raw settings value is absent or null.
func empty(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

// describeHooks names each hook command of a hooks setting by event; a
// setting without commands that is not empty still counts (it may turn
// the user's hooks off).
func describeHooks(raw json.RawMessage) []string {
	if empty(raw) {
		return nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) == nil {
		if inner, ok := top["hooks"]; ok {
			top = nil
			json.Unmarshal(inner, &top)
		}
	}
	var out []string
	for _, ev := range slices.Sorted(maps.Keys(top)) {
		var v any
		json.Unmarshal(top[ev], &v)
		for _, cmd := range commands(v) {
			out = append(out, fmt.Sprintf("adds hook %s: %s", ev, cmd))
		}
	}
	if len(out) == 0 && strings.TrimSpace(string(raw)) != "{}" {
		out = append(out, "changes hook settings")
	}
	return out
}

// commands collects every "command" string in a decoded JSON value.
func commands(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		if c, ok := v["command"].(string); ok {
			out = append(out, c)
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, commands(v[k])...)
		}
	case []any:
		for _, e := range v {
			out = append(out, commands(e)...)
		}
	}
	return out
}

// describeMCP names each MCP server of a setting with what it starts or
// reaches, and the file it came from when from names one.
func describeMCP(raw json.RawMessage, from map[string]string) []string {
	if empty(raw) {
		return nil
	}
	var servers map[string]MCPServer
	if json.Unmarshal(raw, &servers) != nil {
		return []string{"adds MCP servers"}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		s := servers[name]
		what := strings.TrimSpace(s.Command + " " + strings.Join(s.Args, " "))
		for _, u := range []string{s.HTTPURL, s.URL} {
			if what == "" {
				what = u
			}
		}
		line := fmt.Sprintf("adds MCP server %s (%s)", name, what)
		if f := from[name]; f != "" {
			line += " from " + f
		}
		out = append(out, line)
	}
	return out
}

// unsafeMode reports whether an approval mode approves calls without
// asking (yolo, auto_edit), which a project may set only once accepted.
func unsafeMode(mode string) bool { return mode == "yolo" || mode == "auto_edit" }

// describeLSP names each language server of an "lsp" setting with its
// command ("" for an entry that only tunes a built-in server).
func describeLSP(raw json.RawMessage) []string {
	if empty(raw) {
		return nil
	}
	var servers map[string]struct {
		Command json.RawMessage `json:"command"`
	}
	if json.Unmarshal(raw, &servers) != nil {
		return []string{"adds language servers"}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		line := "configures language server " + name
		var cmd any
		if json.Unmarshal(servers[name].Command, &cmd) == nil && cmd != nil {
			line += fmt.Sprintf(" (%v)", cmd)
		}
		out = append(out, line)
	}
	return out
}
