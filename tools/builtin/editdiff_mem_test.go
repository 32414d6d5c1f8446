package builtin

import (
	"strings"
	"testing"
)

// TestDiffPeakHeap bounds the heap a result's diff takes, as a multiple of
// the content: a new file is every line added (no comparison), and a
// small change in a large file compares only the changed region.
func TestDiffPeakHeap(t *testing.T) {
	line := "a line of a big file written by write_file in one call, numbered 0000000\n"
	content := strings.Repeat(line, (3<<20)/len(line)) // under maxExactDiff
	mid := len(content) / 2
	for _, tc := range []struct {
		name, before string
		max          float64
	}{
		{"new file", "", 0.5},
		{"one line changed", content[:mid] + "x\n" + content[mid:], 1.5},
	} {
		var d fileDiff
		peak := peakHeap(func() { d = unifiedDiff("big.txt", tc.before, content) })
		if x := float64(peak) / float64(len(content)); x > tc.max {
			t.Errorf("%s: the diff took %.1fx the content at its peak, want at most %.1fx", tc.name, x, tc.max)
		}
		if d.added+d.removed == 0 {
			t.Errorf("%s: no line changed", tc.name)
		}
	}
}
