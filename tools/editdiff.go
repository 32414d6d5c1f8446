package tools

import (
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

// unifiedDiff diffs before and after (line endings normalised to LF) as a
// unified diff labelled label. The unchanged lines at both ends are set
// aside first, but for the context, so that a small change in a large file
// costs little more than comparing the two texts once.
func unifiedDiff(label, before, after string) fileDiff {
	before, after = toLF(before), toLF(after)
	if before == after {
		return fileDiff{}
	}
	start, skipped := prefixCut(before, after)
	endB, endA := suffixCut(before, after, start)
	b, a := before[start:endB], after[start:endA]
	u, err := udiff.ToUnifiedDiff(label, label, b, udiff.Lines(b, a), diffContext)
	if err != nil {
		// The edits come from the library for this very text: cannot happen.
		return fileDiff{text: "(diff unavailable: " + err.Error() + ")\n"}
	}
	var d fileDiff
	for _, h := range u.Hunks {
		h.FromLine += skipped
		h.ToLine += skipped
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				d.added++
			case udiff.Delete:
				d.removed++
			}
		}
	}
	d.text = u.String()
	return d
}

// prefixCut returns where the texts' common leading lines end, less
// diffContext lines, and how many lines come before that point.
func prefixCut(before, after string) (offset, lines int) {
	i := 0
	for i < len(before) && i < len(after) && before[i] == after[i] {
		i++
	}
	p := strings.LastIndexByte(before[:i], '\n') + 1
	for range diffContext {
		if p == 0 {
			break
		}
		p = strings.LastIndexByte(before[:p-1], '\n') + 1
	}
	return p, strings.Count(before[:p], "\n")
}

// suffixCut returns where the texts' common trailing lines start in each,
// plus diffContext lines; the cut stays at or after from.
func suffixCut(before, after string, from int) (endB, endA int) {
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
	for range diffContext {
		k := strings.IndexByte(before[endB:], '\n')
		if k < 0 {
			return len(before), len(after)
		}
		endB, endA = endB+k+1, endA+k+1
	}
	return endB, endA
}
