package tools

import (
	"strings"
	"testing"
)

func BenchmarkTmpDiffMany(b *testing.B) {
	text := largeGoFile(100_000)
	after := strings.ReplaceAll(text, "if y > 7 {", "if y >= 7 {")
	b.Logf("changes: %d", strings.Count(text, "if y > 7 {"))
	for b.Loop() {
		unifiedDiff("x", text, after)
	}
}
