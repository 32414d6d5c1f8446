package builtin

import "strings"

// tabWidth is how many columns a tab counts for when indentation written
// with tabs is compared with indentation written with spaces.
const tabWidth = 4

// indentStyle is how a stretch of text indents: with tabs or spaces, and
// how many columns one level is.
type indentStyle struct {
	tabs bool
	unit int
}

// reindent fits the model's new lines to the file when old_string matched
// only once whitespace was ignored. oldLines are old_string's lines and
// fileLines the file lines they matched, pair by pair. A new line that is
// one of old_string's lines, indentation included, gets that line's
// indentation in the file. Any other keeps its depth relative to an anchor,
// the old line at the same position (or the last one), counted in levels
// and written in the file's style (tabs or spaces, its unit). Blank lines
// stay empty.
func reindent(newLines, oldLines, fileLines []string) []string {
	same := map[string]string{}
	for k, o := range oldLines {
		key := strings.TrimRight(o, " \t")
		if _, ok := same[key]; !ok && key != "" {
			same[key] = indentOf(fileLines[k])
		}
	}
	modelStyle := styleOf(append(append([]string(nil), oldLines...), newLines...), indentStyle{unit: tabWidth})
	fileStyle := styleOf(fileLines, modelStyle)
	out := make([]string, len(newLines))
	for i, l := range newLines {
		ind := indentOf(l)
		body := l[len(ind):]
		if body == "" {
			continue
		}
		if fi, ok := same[strings.TrimRight(l, " \t")]; ok {
			out[i] = fi + body
			continue
		}
		k := anchorLine(oldLines, i)
		d := columns(ind) - columns(indentOf(oldLines[k]))
		levels, rest := d/modelStyle.unit, d%modelStyle.unit
		cols := max(columns(indentOf(fileLines[k]))+levels*fileStyle.unit+rest, 0)
		out[i] = fileStyle.render(cols) + body
	}
	return out
}

// anchorLine returns the non-blank old line nearest position i, looking
// back first. old has at least one non-blank line.
func anchorLine(old []string, i int) int {
	i = min(i, len(old)-1)
	for k := i; k >= 0; k-- {
		if strings.TrimSpace(old[k]) != "" {
			return k
		}
	}
	for k := i + 1; k < len(old); k++ {
		if strings.TrimSpace(old[k]) != "" {
			return k
		}
	}
	return 0
}

// styleOf works out how lines indent: tabs when more indented lines start
// with a tab than with a space, and the unit as the most common step by
// which one line is indented deeper than the one before. What the lines do
// not show is taken from def.
func styleOf(lines []string, def indentStyle) indentStyle {
	tabs, spaces := 0, 0
	steps := map[int]int{}
	prev := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := indentOf(l)
		switch {
		case strings.HasPrefix(ind, "\t"):
			tabs++
		case ind != "":
			spaces++
		}
		c := columns(ind)
		if prev >= 0 && c > prev {
			steps[c-prev]++
		}
		prev = c
	}
	st := def
	if tabs+spaces > 0 {
		st.tabs = tabs > spaces
	}
	if st.tabs {
		st.unit = tabWidth
		return st
	}
	best := 0
	for step, n := range steps {
		if n > steps[best] || (n == steps[best] && step < best) {
			best = step
		}
	}
	if best > 0 {
		st.unit = best
	}
	if st.unit <= 0 {
		st.unit = tabWidth
	}
	return st
}

// render writes an indentation of cols columns in the style.
func (s indentStyle) render(cols int) string {
	if s.tabs {
		return strings.Repeat("\t", cols/tabWidth) + strings.Repeat(" ", cols%tabWidth)
	}
	return strings.Repeat(" ", cols)
}

// indentOf returns the leading spaces and tabs of s.
func indentOf(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// columns is the width of an indentation, a tab counting tabWidth.
func columns(ind string) int {
	return len(ind) + strings.Count(ind, "\t")*(tabWidth-1)
}
