package hooks

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"companion/tools"
)

// Hooks written for Claude Code (under its event names: PreToolUse,
// PostToolUse, UserPromptSubmit, Stop, PreCompact, or any event in a
// Claude Code settings file's shape) speak its dialect: their matchers
// name its tools (Bash, Edit|Write, mcp__.*), they read its event and
// tool names and its tool input (Bash {command, description}, Edit
// {file_path, old_string, new_string, replace_all}, Glob {pattern, path},
// file paths absolute), their timeouts are in seconds, and a replacement
// input they print is in the same shape. Hooks under companion's (Gemini
// CLI's) event names read companion's names and input, which are Gemini
// CLI's; their timeouts are in milliseconds. A matcher is tested against
// every name of the tool: companion's, Claude Code's and Gemini CLI's.

// claudeEvents maps Claude Code's event names to companion's.
var claudeEvents = map[string]string{"PreToolUse": BeforeTool, "PostToolUse": AfterTool,
	"UserPromptSubmit": BeforeAgent, "Stop": AfterAgent, "PreCompact": PreCompress}

// claudeEventName is the name Claude Code gives companion's event.
func claudeEventName(event string) string {
	for k, v := range claudeEvents {
		if v == event {
			return k
		}
	}
	return event
}

// toolNames are every name of the tool in: companion's, then Claude
// Code's and Gemini CLI's.
func toolNames(in Input) []string {
	names := []string{in.ToolName}
	if in.MCPServer != "" {
		c, g := tools.MCPNames(in.MCPServer, in.MCPTool)
		return append(names, c, g)
	}
	if a, ok := tools.AliasOf(in.ToolName); ok {
		for _, n := range []string{a.Claude, a.Gemini} {
			if n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return names
}

// claudeToolName is the name Claude Code gives the tool of in; companion's
// for a tool it does not have.
func claudeToolName(in Input) string {
	if in.MCPServer != "" {
		c, _ := tools.MCPNames(in.MCPServer, in.MCPTool)
		return c
	}
	if a, ok := tools.AliasOf(in.ToolName); ok && a.Claude != "" {
		return a.Claude
	}
	return in.ToolName
}

// matchesAny reports whether re matches one of names.
func matchesAny(re *regexp.Regexp, names []string) bool {
	return slices.ContainsFunc(names, re.MatchString)
}

// knownToolMatcher reports whether a tool event's matcher can match a
// tool: one of companion's, Claude Code's or Gemini CLI's names, or an
// MCP tool (a matcher that mentions "mcp" or "__").
func knownToolMatcher(re *regexp.Regexp, matcher string) bool {
	if re == nil || strings.Contains(strings.ToLower(matcher), "mcp") || strings.Contains(matcher, "__") {
		return true
	}
	for _, a := range tools.Aliases() {
		for _, n := range []string{a.Name, a.Claude, a.Gemini} {
			if n != "" && re.MatchString(n) {
				return true
			}
		}
	}
	return matchesAny(re, tools.ClaudeOnly())
}

// claudePayload rewrites a payload in companion's shape into Claude
// Code's: its event and tool names, and its tool input.
func claudePayload(p map[string]any, event string, in Input) map[string]any {
	out := maps.Clone(p)
	out["hook_event_name"] = claudeEventName(event)
	if in.ToolName == "" {
		return out
	}
	out["tool_name"] = claudeToolName(in)
	if input := inputMap(p["tool_input"]); input != nil {
		out["tool_input"] = claudeInput(in.ToolName, input, in.Cwd)
	}
	return out
}

// inputMap reads a tool input given as a map or as JSON text.
func inputMap(v any) map[string]any {
	switch v := v.(type) {
	case map[string]any:
		return v
	case json.RawMessage:
		var m map[string]any
		json.Unmarshal(v, &m)
		return m
	}
	return nil
}

// claudeInput renames the members of tool's input that Claude Code spells
// differently and makes its paths absolute (from cwd).
func claudeInput(tool string, input map[string]any, cwd string) map[string]any {
	a, _ := tools.AliasOf(tool)
	out := make(map[string]any, len(input))
	for k, v := range input {
		if c, ok := a.ClaudeKeys[k]; ok {
			k = c
		}
		if s, ok := v.(string); ok && (k == "file_path" || k == "path") && s != "" && !filepath.IsAbs(s) && cwd != "" {
			v = filepath.Join(cwd, s)
		}
		out[k] = v
	}
	return out
}

// fromClaudeInput renames a replacement input a Claude Code hook printed
// back into companion's spelling.
func fromClaudeInput(tool string, input map[string]any) map[string]any {
	a, _ := tools.AliasOf(tool)
	out := make(map[string]any, len(input))
	for k, v := range input {
		for ours, theirs := range a.ClaudeKeys {
			if k == theirs {
				k = ours
			}
		}
		out[k] = v
	}
	return out
}
