package acpgen

import (
	"strings"
	"unicode"
)

// initialism returns the Go spelling of a lower-cased word that Go writes in
// capitals, so that schema names read as Go: SessionId → SessionID,
// McpServerHttp → MCPServerHTTP. This is the generator's rename table.
func initialism(word string) (string, bool) {
	switch word {
	case "id", "uri", "url", "mcp", "json", "jsonrpc", "http", "sse", "mime", "api":
		return strings.ToUpper(word), true
	}
	return "", false
}

// goName turns a schema name, JSON key or enum value into an exported Go
// identifier: words split at '_', '-', '/', '$', spaces and lower→upper case
// changes, each word capitalised or replaced from the initialism table.
// "_meta" → "Meta", "agent_message_chunk" → "AgentMessageChunk",
// "mimeType" → "MIMEType", "date-time" → "DateTime".
func goName(s string) string {
	var b strings.Builder
	for _, w := range splitWords(s) {
		if up, ok := initialism(strings.ToLower(w)); ok {
			b.WriteString(up)
			continue
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		b.WriteString(string(r))
	}
	return b.String()
}

// splitWords splits s into words at separators and camel-case boundaries.
// A run of capitals followed by a lower-case letter keeps its last capital
// for the next word ("HTTPServer" → "HTTP", "Server").
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = nil
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prevLower := unicode.IsLower(cur[len(cur)-1]) || unicode.IsDigit(cur[len(cur)-1])
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if prevLower || nextLower {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}
