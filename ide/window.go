package ide

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// writeWindow writes the lines around the cursor of the active file,
// numbered from 1, the cursor line marked with ">". It writes nothing
// without a cursor or reader, or when the read fails.
func writeWindow(ctx context.Context, b *strings.Builder, f OpenFile, readFile ReadFileFunc) {
	if f.Cursor == nil || readFile == nil {
		return
	}
	p, err := PathFromURI(f.URI)
	if err != nil {
		return
	}
	text, err := readFile(ctx, p)
	if err != nil {
		return
	}
	text = strings.TrimSuffix(text, "\n")
	n := strings.Count(text, "\n") + 1
	cursor := min(int(f.Cursor.Line), n-1)
	first := max(0, cursor-windowRadius)
	last := min(n-1, cursor+windowRadius)
	lines := linesFrom(text, first, last-first+1)
	fmt.Fprintf(b, "\nLines %d-%d of %s (cursor line %d marked >):\n", first+1, last+1, p, cursor+1)
	width := len(strconv.Itoa(last + 1))
	var body strings.Builder
	for i := first; i <= last; i++ {
		mark := "  "
		if i == cursor {
			mark = "> "
		}
		line := cutLine(strings.TrimSuffix(lines[i-first], "\r"))
		fmt.Fprintf(&body, "%s%*d  %s\n", mark, width, i+1, line)
	}
	writeFenced(b, f.URI, body.String())
}

// linesFrom returns count lines of text from line first (0-based), without
// splitting the rest of it: a large file costs a scan, not a slice of
// every line.
func linesFrom(text string, first, count int) []string {
	for ; first > 0; first-- {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			return nil
		}
		text = text[i+1:]
	}
	lines := make([]string, 0, count)
	for len(lines) < count {
		line, rest, found := strings.Cut(text, "\n")
		lines = append(lines, line)
		if !found {
			break
		}
		text = rest
	}
	return lines
}

// cutLine shortens a line to maxLineBytes on a rune boundary.
func cutLine(s string) string {
	if len(s) <= maxLineBytes {
		return s
	}
	cut := maxLineBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + " …"
}

// writeFenced writes text in a Markdown code fence longer than any run of
// backticks inside it, tagged with the file's extension.
func writeFenced(b *strings.Builder, uri, text string) {
	fence := strings.Repeat("`", max(3, longestBacktickRun(text)+1))
	b.WriteString(fence + fenceInfo(uri) + "\n")
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(fence + "\n")
}

// longestBacktickRun returns the length of the longest run of '`' in s.
func longestBacktickRun(s string) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// fenceInfo returns the extension of uri without its dot when it is a
// plain word (go, ts, py), else "".
func fenceInfo(uri string) string {
	ext := strings.TrimPrefix(filepath.Ext(pathOf(uri)), ".")
	for _, r := range ext {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return ""
		}
	}
	return ext
}
