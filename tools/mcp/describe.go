package mcp

import (
	"fmt"
	"strings"
)

// Describe is the /mcp text: markdown listing every server with its
// transport, state, restarts, tools, prompts and last error.
func (m *Manager) Describe() string {
	sts := m.Status()
	if len(sts) == 0 {
		return "No MCP servers are configured.\n"
	}
	var b strings.Builder
	b.WriteString("## MCP servers\n")
	for _, st := range sts {
		describeServer(&b, st)
		m.describeAuth(&b, st.Name)
	}
	return b.String()
}

// describeServer writes one server's section.
func describeServer(b *strings.Builder, st ServerStatus) {
	fmt.Fprintf(b, "\n### %s (%s): %s\n", st.Name, st.Transport, stateText(st.State))
	if st.Restarts > 0 {
		fmt.Fprintf(b, "- Restarts: %d\n", st.Restarts)
	}
	if len(st.Tools) > 0 {
		fmt.Fprintf(b, "- Tools (%d): %s\n", len(st.Tools), codeList(st.Tools))
	} else {
		b.WriteString("- Tools: none\n")
	}
	if len(st.Prompts) > 0 {
		fmt.Fprintf(b, "- Prompts (%d): %s\n", len(st.Prompts), codeList(st.Prompts))
	}
	if st.LastError != "" {
		fmt.Fprintf(b, "- Last error: %s\n", oneLine(st.LastError))
	}
}

// stateText is a state as a reader would say it.
func stateText(s State) string {
	switch s {
	case StateReady:
		return "ready"
	case StateConnecting:
		return "connecting…"
	case StateRestarting:
		return "restarting…"
	default:
		return "failed"
	}
}

// codeList formats names as inline code, comma separated.
func codeList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + strings.ReplaceAll(n, "`", "'") + "`"
	}
	return strings.Join(quoted, ", ")
}

// oneLine folds text onto one line for a list item.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
