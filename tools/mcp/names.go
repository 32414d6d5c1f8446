package mcp

import (
	"strconv"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// maxNameLen is the longest function name models accept.
const maxNameLen = 64

// toolEntry is one server tool waiting for its model-facing name.
type toolEntry struct {
	srv  *server
	tool mcpgo.Tool
}

// toolName is the model-facing name of a server's tool before collisions
// are resolved: mcp_<server>_<tool>, every character outside [a-zA-Z0-9_]
// replaced by '_', cut to 64 characters.
func toolName(server, tool string) string {
	return cut(sanitize("mcp_"+server+"_"+tool), maxNameLen)
}

// sanitize replaces every character outside [a-zA-Z0-9_] by '_'.
func sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// cut shortens the ASCII string s to at most n bytes.
func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// assignNames gives each entry a unique name, never one of reserved. The
// entries come in configuration order of the servers and name order of each
// server's tools; the first entry wanting a name gets it and later ones
// get the smallest free suffix _2, _3, ... (the base cut so the name stays
// within 64 characters). So the result depends only on the servers' order
// and their tools.
func assignNames(entries []toolEntry, reserved []string) []string {
	taken := make(map[string]bool, len(entries)+len(reserved))
	for _, r := range reserved {
		taken[r] = true
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		base := toolName(e.srv.cfg.Name, e.tool.Name)
		name := base
		for n := 2; taken[name]; n++ {
			suffix := "_" + strconv.Itoa(n)
			name = cut(base, maxNameLen-len(suffix)) + suffix
		}
		taken[name] = true
		names[i] = name
	}
	return names
}
