package builtin

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// fileDiff is a unified diff of two texts and its line counts.
type fileDiff struct {
	text           string
	added, removed int
}

// maxExactDiff bounds the changed region (both sides together, in bytes)
// that unifiedDiff compares line by line; a bigger one is shown as all of
// its old lines removed and all of its new lines added (see coarseDiff).
const maxExactDiff = 4 << 20

// unifiedDiff diffs before and after (line endings normalised to LF) as a
// unified diff labelled label. The unchanged lines at both ends are set
// aside before the library compares lines, so a small change in a large
// file costs little more than comparing the two texts once.
func unifiedDiff(label, before, after string) fileDiff {
	if before == "" && after != "" {
		// A new file: every line added, which needs no comparison (the
		// library's costs some six times the text).
		return coarseDiff(label, before, after, 0, 0, len(after))
	}
	if len(before)+len(after) > maxExactDiff {
		start := prefixCut(before, after, 0)
		endB, endA := suffixCut(before, after, start, 0)
		if (endB-start)+(endA-start) > maxExactDiff {
			return coarseDiff(label, before, after, start, endB, endA)
		}
	}
	before, after = toLF(before), toLF(after)
	if before == after {
		return fileDiff{}
	}
	start := prefixCut(before, after, diffContext)
	endB, endA := suffixCut(before, after, start, diffContext)
	edits := udiff.Lines(before[start:endB], after[start:endA])
	for i := range edits {
		edits[i].Start += start
		edits[i].End += start
	}
	return formatEdits(label, before, edits)
}

// spanDiff is unifiedDiff for a change known as replacements of LF text:
// each replaced region is compared with its new text on its own, so many
// replacements across a large file stay cheap and exact (the library's
// line comparison gives up on minimality past about a hundred changes). ok
// is false when the spans do not turn before into after.
func spanDiff(label, before, after string, spans []span) (d fileDiff, ok bool) {
	before, after = toLF(before), toLF(after)
	var edits []udiff.Edit
	for _, s := range spans {
		for _, e := range udiff.Lines(before[s.start:s.end], s.text) {
			edits = append(edits, udiff.Edit{Start: e.Start + s.start, End: e.End + s.start, New: e.New})
		}
	}
	if got, err := udiff.Apply(before, edits); err != nil || got != after {
		return fileDiff{}, false
	}
	return formatEdits(label, before, edits), true
}

// formatEdits renders edits of b (sorted, in b's offsets) as a unified
// diff. The library formats each cluster of nearby edits on its own slice
// of b, and the hunks are moved to their place in the file: its formatter
// counts lines from the start of the text for every edit.
func formatEdits(label, b string, edits []udiff.Edit) fileDiff {
	u := udiff.UnifiedDiff{From: label, To: label}
	var d fileDiff
	line, lineAt, shift := 0, 0, 0
	for i := 0; i < len(edits); {
		j := i + 1
		for j < len(edits) && strings.Count(b[edits[j-1].End:edits[j].Start], "\n") <= 2*diffContext {
			j++
		}
		from := linesBack(b, edits[i].Start, diffContext)
		to := linesForward(b, edits[j-1].End, diffContext)
		group := make([]udiff.Edit, j-i)
		for k, e := range edits[i:j] {
			group[k] = udiff.Edit{Start: e.Start - from, End: e.End - from, New: e.New}
		}
		seg, err := udiff.ToUnifiedDiff(label, label, b[from:to], group, diffContext)
		if err != nil {
			// The edits were checked against this very text: cannot happen.
			return fileDiff{text: "(diff unavailable: " + err.Error() + ")\n"}
		}
		line += strings.Count(b[lineAt:from], "\n")
		lineAt = from
		added, removed := 0, 0
		for _, h := range seg.Hunks {
			h.FromLine += line
			h.ToLine += line + shift
			for _, l := range h.Lines {
				switch l.Kind {
				case udiff.Insert:
					added++
				case udiff.Delete:
					removed++
				}
			}
			u.Hunks = append(u.Hunks, h)
		}
		d.added, d.removed, shift = d.added+added, d.removed+removed, shift+added-removed
		i = j
	}
	d.text = u.String()
	return d
}

// linesBack returns the start of the line n lines before the one holding
// offset off.
func linesBack(s string, off, n int) int {
	p := strings.LastIndexByte(s[:off], '\n') + 1
	for range n {
		if p == 0 {
			break
		}
		p = strings.LastIndexByte(s[:p-1], '\n') + 1
	}
	return p
}

// linesForward returns the end of the line n lines after the one holding
// offset off (the end of off's own line when off is at no line start), or
// len(s).
func linesForward(s string, off, n int) int {
	if off > 0 && s[off-1] != '\n' {
		n++
	}
	for range n {
		k := strings.IndexByte(s[off:], '\n')
		if k < 0 {
			return len(s)
		}
		off += k + 1
	}
	return off
}

// prefixCut returns where the texts' common leading lines end, less n
// lines of context.
func prefixCut(before, after string, n int) int {
	i := 0
	for i < len(before) && i < len(after) && before[i] == after[i] {
		i++
	}
	return linesBack(before, i, n)
}

// suffixCut returns where the texts' common trailing lines start in each,
// plus n lines of context; the cut stays at or after from.
func suffixCut(before, after string, from, n int) (endB, endA int) {
	j := 0
	for j < len(before)-from && j < len(after)-from && before[len(before)-1-j] == after[len(after)-1-j] {
		j++
	}
	endB, endA = len(before)-j, len(after)-j
	if (endB > 0 && before[endB-1] != '\n') || (endA > 0 && after[endA-1] != '\n') {
		k := strings.IndexByte(before[endB:], '\n')
		if k < 0 {
			return len(before), len(after)
		}
		endB, endA = endB+k+1, endA+k+1
	}
	for range n {
		k := strings.IndexByte(before[endB:], '\n')
		if k < 0 {
			return len(before), len(after)
		}
		endB, endA = endB+k+1, endA+k+1
	}
	return endB, endA
}

// coarseDiff renders a change too big to compare line by line: the lines
// of before[start:endB] removed and those of after[start:endA] added, with
// context around, in one hunk. The texts are neither copied nor split: the
// text keeps its first maxDisplayDiffLines lines (all a result shows) and
// says how many more there are; the counts are exact for such a hunk.
func coarseDiff(label, before, after string, start, endB, endA int) fileDiff {
	from := linesBack(before, start, diffContext)
	to := linesForward(before, endB, diffContext)
	d := fileDiff{removed: lineCount(before[start:endB]), added: lineCount(after[start:endA])}
	ctx := lineCount(before[from:start]) + lineCount(before[endB:to])
	line := strings.Count(before[:from], "\n") + 1
	w := cappedDiff{max: maxDisplayDiffLines - 4} // with the 3 header lines and the count of the rest
	w.b.WriteString("--- " + label + "\n+++ " + label + "\n")
	w.b.WriteString("@@ " + hunkRange('-', line, ctx+d.removed) + " " + hunkRange('+', line, ctx+d.added) + " @@\n")
	w.lines(' ', before[from:start])
	w.lines('-', before[start:endB])
	w.lines('+', after[start:endA])
	w.lines(' ', before[endB:to])
	d.text = w.String()
	return d
}

// hunkRange renders one side of a hunk header as the diff library does.
func hunkRange(sign byte, line, count int) string {
	switch {
	case count > 1:
		return fmt.Sprintf("%c%d,%d", sign, line, count)
	case line == 1 && count == 0:
		return fmt.Sprintf("%c0,0", sign)
	}
	return fmt.Sprintf("%c%d", sign, line)
}

// cappedDiff writes diff lines until it holds max of them, then only
// counts the rest.
type cappedDiff struct {
	b         strings.Builder
	n, max    int
	remaining int
}

// lines writes each line of text with the prefix sign, LF-terminated.
func (w *cappedDiff) lines(sign byte, text string) {
	for text != "" {
		if w.n >= w.max {
			w.remaining += lineCount(text)
			return
		}
		line, rest, found := strings.Cut(text, "\n")
		text = rest
		w.b.WriteByte(sign)
		w.b.WriteString(strings.TrimSuffix(line, "\r"))
		w.b.WriteByte('\n')
		w.n++
		if !found {
			w.b.WriteString("\\ No newline at end of file\n")
		}
	}
}

func (w *cappedDiff) String() string {
	if w.remaining > 0 {
		fmt.Fprintf(&w.b, "... (%d more lines)\n", w.remaining)
	}
	return w.b.String()
}
