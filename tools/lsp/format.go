package lsp

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"companion/lspclient"
	"companion/tools"
)

// maxResults bounds the locations and symbols a navigation tool lists.
const maxResults = 50

// maxContext bounds a line of context.
const maxContext = 160

// spot is one place in a file to list: a path, a 1-based line and what
// to say before the line of context (a symbol's name and kind).
type spot struct {
	path  string
	line  int
	label string
}

// spotsOf turns locations into spots; those not in files are dropped.
func spotsOf(locs []lspclient.Location) []spot {
	out := make([]spot, 0, len(locs))
	for _, l := range locs {
		if p, ok := lspclient.FilePath(l.URI); ok {
			out = append(out, spot{path: p, line: int(l.Range.Start.Line) + 1})
		}
	}
	return out
}

// renderSpots lists spots as "path:line: context", sorted by path and
// line, duplicates dropped, capped at maxResults; paths are shown as the
// session shows them.
func renderSpots(roots *tools.Roots, spots []spot) string {
	slices.SortFunc(spots, func(a, b spot) int {
		return cmp.Or(cmp.Compare(a.path, b.path), cmp.Compare(a.line, b.line), cmp.Compare(a.label, b.label))
	})
	spots = slices.Compact(spots)
	var b strings.Builder
	files := map[string][]string{}
	for i, s := range spots {
		if i == maxResults {
			fmt.Fprintf(&b, "… and %d more (not listed)\n", len(spots)-maxResults)
			break
		}
		lines, ok := files[s.path]
		if !ok {
			lines = fileLines(s.path)
			files[s.path] = lines
		}
		fmt.Fprintf(&b, "%s:%d: ", roots.Display(s.path), s.line)
		if s.label != "" {
			b.WriteString(s.label + ": ")
		}
		b.WriteString(clip(lineOf(lines, s.line)) + "\n")
	}
	return b.String()
}

// clip shortens a line of context to maxContext bytes.
func clip(s string) string {
	if len(s) <= maxContext {
		return s
	}
	cut := maxContext
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// utf8Start reports whether b starts a UTF-8 sequence.
func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// symbolKinds names LSP's symbol kinds.
func symbolKind(k lspclient.SymbolKind) string {
	names := []string{"", "file", "module", "namespace", "package", "class", "method", "property", "field",
		"constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean",
		"array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"}
	if int(k) > 0 && int(k) < len(names) {
		return names[k]
	}
	return "symbol"
}

// documentSpots flattens document symbols (children after their parent,
// named parent.child) into spots in path.
func documentSpots(path, parent string, syms []lspclient.DocumentSymbol) []spot {
	var out []spot
	for _, s := range syms {
		name := s.Name
		if parent != "" {
			name = parent + "." + name
		}
		line := int(s.SelectionRange.Start.Line) + 1
		p := path
		if s.Location != nil { // a flat SymbolInformation
			line = int(s.Location.Range.Start.Line) + 1
			if lp, ok := lspclient.FilePath(s.Location.URI); ok {
				p = lp
			}
		}
		out = append(out, spot{path: p, line: line, label: symbolKind(s.Kind) + " " + name})
		out = append(out, documentSpots(path, name, s.Children)...)
	}
	return out
}
