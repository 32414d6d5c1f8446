package tools

import "strings"

// Alias is one tool under the names the three agents give it: companion's
// own, Claude Code's and Gemini CLI's ("" where that agent has no such
// tool). Settings copied from either agent name tools their way:
// permission rules (tools/policy) and hook matchers (agent/hooks) read
// all three.
type Alias struct {
	Name, Claude, Gemini string
	// ClaudeKeys renames the members of the tool's input that Claude Code
	// spells differently (companion's → Claude's); members not listed are
	// the same in both.
	ClaudeKeys map[string]string
}

// Aliases lists companion's tools with their Claude Code and Gemini CLI
// names. MCP tools are not listed: see MCPNames.
func Aliases() []Alias {
	return []Alias{
		{Name: "run_shell_command", Claude: "Bash", Gemini: "run_shell_command",
			ClaudeKeys: map[string]string{"is_background": "run_in_background"}},
		{Name: "replace", Claude: "Edit", Gemini: "replace",
			ClaudeKeys: map[string]string{"allow_multiple": "replace_all"}},
		{Name: "write_file", Claude: "Write", Gemini: "write_file"},
		{Name: "read_file", Claude: "Read", Gemini: "read_file"},
		{Name: "read_many_files", Gemini: "read_many_files"},
		{Name: "list_directory", Claude: "LS", Gemini: "list_directory",
			ClaudeKeys: map[string]string{"dir_path": "path"}},
		{Name: "glob", Claude: "Glob", Gemini: "glob", ClaudeKeys: map[string]string{"dir_path": "path"}},
		{Name: "grep", Claude: "Grep", Gemini: "search_file_content",
			ClaudeKeys: map[string]string{"dir_path": "path", "include": "glob"}},
		{Name: "web_fetch", Claude: "WebFetch", Gemini: "web_fetch"},
		{Name: "google_web_search", Claude: "WebSearch", Gemini: "google_web_search"},
		{Name: "ask_user", Claude: "AskUserQuestion"},
		{Name: "write_todos", Claude: "TodoWrite", Gemini: "write_todos"},
		{Name: "save_memory", Gemini: "save_memory"},
		{Name: "delegate_to_agent", Claude: "Task", Gemini: "delegate_to_agent"},
		{Name: "activate_skill", Claude: "Skill", Gemini: "activate_skill"},
		{Name: "read_background_output", Claude: "BashOutput"},
		{Name: "kill_background_process", Claude: "KillShell"},
		{Name: "list_background_processes"},
		{Name: "list_mcp_resources", Claude: "ListMcpResourcesTool"},
		{Name: "mcp_read_resource", Claude: "ReadMcpResourceTool"},
	}
}

// ClaudeOnly are Claude Code tools companion has no counterpart for: a
// rule or matcher naming one is understood but matches nothing here.
func ClaudeOnly() []string {
	return []string{"MultiEdit", "NotebookEdit", "NotebookRead", "ExitPlanMode", "SlashCommand", "KillBash"}
}

// AliasOf returns the alias entry of companion's tool name.
func AliasOf(name string) (Alias, bool) {
	for _, a := range Aliases() {
		if a.Name == name {
			return a, true
		}
	}
	return Alias{}, false
}

// MCPNames returns the names Claude Code (mcp__server__tool) and Gemini
// CLI (server__tool) give an MCP server's tool.
func MCPNames(server, tool string) (claude, gemini string) {
	return "mcp__" + server + "__" + tool, server + "__" + tool
}

// ParseClaudeMCP splits a Claude Code MCP name, "mcp__server" or
// "mcp__server__tool"; ok is false for any other name.
func ParseClaudeMCP(name string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, "mcp__")
	if !found || rest == "" {
		return "", "", false
	}
	server, tool, _ = strings.Cut(rest, "__")
	return server, tool, server != ""
}

// MCPOrigin is implemented by tools that stand for an MCP server's tool:
// the server's name and the tool's name on the server, from which the
// names Claude Code and Gemini CLI give it are made (MCPNames).
type MCPOrigin interface {
	MCPOrigin() (server, tool string)
}
