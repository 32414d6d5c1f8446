package config

import (
	"fmt"
	"path/filepath"
)

// MCP servers are read from up to five files, and `companion mcp list`
// and `remove` see all of them, in the order sessions read them:
//   - the user's: companion's settings file, else (when that names no
//     server at all) Gemini CLI's ~/.gemini/settings.json;
//   - the project's, in a trusted folder, server by server with the
//     earlier file winning: .companion/settings.json, .gemini/settings.json,
//     .mcp.json. A project's server replaces a user's of the same name.

// GeminiUserSettingsPath is Gemini CLI's user settings file in home.
func GeminiUserSettingsPath(home string) string {
	return filepath.Join(home, ".gemini", "settings.json")
}

// Scopes of an MCP server's settings file.
const (
	ScopeUser    = "user"
	ScopeProject = "project"
)

// MCPSource is one settings file MCP servers are read from.
type MCPSource struct {
	Path  string
	Scope string
	// Owner is the tool the file belongs to: companion, Gemini CLI or
	// Claude Code.
	Owner string
}

// MCPSources are the files sessions read MCP servers from, the user's
// (settingsPath, then Gemini CLI's in home) first, then root's, each
// scope in its order of precedence. home "" leaves Gemini CLI's out.
func MCPSources(settingsPath, home, root string) []MCPSource {
	var out []MCPSource
	if settingsPath != "" {
		out = append(out, MCPSource{settingsPath, ScopeUser, "companion"})
	}
	if home != "" {
		out = append(out, MCPSource{GeminiUserSettingsPath(home), ScopeUser, "Gemini CLI"})
	}
	return append(out, MCPSource{ProjectSettingsPath(root), ScopeProject, "companion"},
		MCPSource{GeminiProjectSettingsPath(root), ScopeProject, "Gemini CLI"},
		MCPSource{ClaudeMCPPath(root), ScopeProject, "Claude Code"})
}

// MCPEntry is one MCP server as one settings file names it.
type MCPEntry struct {
	Name   string
	Server MCPServer
	Source MCPSource
	// Unused says why sessions do not start this entry ("" when they
	// do): another file's server of the same name replaces it, or the
	// file is not read because an earlier one names servers.
	Unused string
}

// ListAllMCPServers returns the servers every source names, in the
// sources' order and by name within each, each marked with why it is not
// used when it is not. Values are as written (${VAR} not expanded). A
// file that cannot be read is an error naming it.
func ListAllMCPServers(sources []MCPSource) ([]MCPEntry, error) {
	var out []MCPEntry
	userFile := "" // the user file sessions read servers from
	for _, src := range sources {
		servers, names, err := ListMCPServers(src.Path)
		if err != nil {
			return nil, err
		}
		if src.Scope == ScopeUser && userFile == "" && len(names) > 0 {
			userFile = src.Path
		}
		for _, n := range names {
			e := MCPEntry{Name: n, Server: servers[n], Source: src}
			if src.Scope == ScopeUser && src.Path != userFile {
				e.Unused = fmt.Sprintf("%s names MCP servers, so this file's are not read", userFile)
			}
			out = append(out, e)
		}
	}
	markReplaced(out)
	return out, nil
}

// markReplaced marks, in entries (in reading order), those a later or an
// earlier entry of the same name replaces: within the project, the
// earlier file wins; a project's server replaces the user's.
func markReplaced(entries []MCPEntry) {
	winner := map[string]int{}
	for i, e := range entries {
		if e.Unused != "" {
			continue
		}
		w, seen := winner[e.Name]
		switch {
		case !seen:
			winner[e.Name] = i
		case entries[w].Source.Scope == ScopeUser && e.Source.Scope == ScopeProject:
			entries[w].Unused = "replaced by the project's in " + e.Source.Path + " (in a trusted folder)"
			winner[e.Name] = i
		default:
			entries[i].Unused = "replaced by the one in " + entries[w].Source.Path
		}
	}
}

// Transport names how a server is reached: stdio, http or sse, by its
// type when set (as Claude Code's .mcp.json writes it), else by its fields.
func (s MCPServer) Transport() string {
	switch s.Type {
	case "stdio", "sse":
		return s.Type
	case "http", "streamable-http", "streamableHttp":
		return "http"
	}
	switch {
	case s.Command != "":
		return "stdio"
	case s.HTTPURL != "":
		return "http"
	}
	return "sse"
}

// Target is the command line or the URL of a server.
func (s MCPServer) Target() string {
	switch {
	case s.Command != "":
		return joinArgs(s.Command, s.Args)
	case s.HTTPURL != "":
		return s.HTTPURL
	}
	return s.URL
}

func joinArgs(cmd string, args []string) string {
	out := cmd
	for _, a := range args {
		out += " " + a
	}
	return out
}
