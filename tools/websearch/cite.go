package websearch

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"companion/tools"
)

// result renders a found answer: for the model, the text with citation
// markers and the sources as a numbered list; for the user, the same with
// the sources as links.
func result(query string, a *Answer) *tools.Result {
	cited := Cite(a.Text, a.Supports, len(a.Sources))
	var plain, links strings.Builder
	for i, s := range a.Sources {
		if s.URI == "" {
			continue
		}
		title := strings.Join(strings.Fields(s.Title), " ")
		if title == "" {
			title = s.URI
		}
		fmt.Fprintf(&plain, "[%d] %s (%s)\n", i+1, title, s.URI)
		fmt.Fprintf(&links, "%d. [%s](%s)\n", i+1, strings.NewReplacer("[", "(", "]", ")").Replace(title), s.URI)
	}
	text, display := fmt.Sprintf("Web search results for %q:\n\n%s", query, cited), cited
	if plain.Len() > 0 {
		text += "\n\nSources:\n" + strings.TrimRight(plain.String(), "\n")
		display += "\n\n**Sources**\n\n" + strings.TrimRight(links.String(), "\n")
	}
	return &tools.Result{Text: text, Display: display, Raw: map[string]any{"query": query, "sources": a.Sources}}
}

// Cite inserts citation markers ("[1]", "[1][3]") into text at the end of
// each supported span, numbering sources from 1. Offsets are bytes; one
// that falls inside a UTF-8 sequence moves to the end of that character,
// so a marker never splits one. Supports naming no valid source (of n)
// or lying outside text are skipped.
func Cite(text string, supports []Support, n int) string {
	at := map[int][]int{}
	for _, s := range supports {
		if s.End <= 0 || s.End > len(text) || s.Start > s.End {
			continue
		}
		end := s.End
		for end < len(text) && !utf8.RuneStart(text[end]) {
			end++
		}
		for _, i := range s.Sources {
			if i >= 0 && i < n && !slices.Contains(at[end], i) {
				at[end] = append(at[end], i)
			}
		}
	}
	offsets := make([]int, 0, len(at))
	for off := range at {
		offsets = append(offsets, off)
	}
	slices.Sort(offsets)
	var b strings.Builder
	prev := 0
	for _, off := range offsets {
		b.WriteString(text[prev:off])
		idx := at[off]
		slices.Sort(idx)
		for _, i := range idx {
			fmt.Fprintf(&b, "[%d]", i+1)
		}
		prev = off
	}
	b.WriteString(text[prev:])
	return b.String()
}
