package lsp

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"companion/lspclient"
)

// applyEdits applies non-overlapping text edits (LSP positions: lines
// and UTF-16 units) to text.
func applyEdits(text string, edits []lspclient.TextEdit) (string, error) {
	type span struct {
		start, end int
		newText    string
	}
	lines := lineStarts(text)
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		start, ok1 := offsetOf(text, lines, e.Range.Start)
		end, ok2 := offsetOf(text, lines, e.Range.End)
		if !ok1 || !ok2 || end < start {
			return "", errors.New("an edit falls outside the file")
		}
		spans = append(spans, span{start, end, e.NewText})
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
	var b strings.Builder
	at := 0
	for _, s := range spans {
		if s.start < at {
			return "", errors.New("the edits overlap")
		}
		b.WriteString(text[at:s.start])
		b.WriteString(s.newText)
		at = s.end
	}
	b.WriteString(text[at:])
	return b.String(), nil
}

// lineStarts are the byte offsets at which text's lines start.
func lineStarts(text string) []int {
	out := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// offsetOf converts a position to a byte offset; a character past the
// line's end means its end.
func offsetOf(text string, lines []int, p lspclient.Position) (int, bool) {
	if int(p.Line) >= len(lines) {
		return len(text), int(p.Line) == len(lines) && p.Character == 0
	}
	at := lines[p.Line]
	end := len(text)
	if int(p.Line)+1 < len(lines) {
		end = lines[p.Line+1] - 1
	}
	for units := uint32(0); units < p.Character && at < end; {
		r, size := utf8.DecodeRuneInString(text[at:end])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		at += size
	}
	return at, true
}
