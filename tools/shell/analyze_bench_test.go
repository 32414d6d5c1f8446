package shell

import "testing"

// BenchmarkAnalyze reads lines models commonly run, interpreters and
// runners among them: the cost every shell call pays before its decision.
func BenchmarkAnalyze(b *testing.B) {
	lines := []string{
		"git status && git diff --stat", "go test ./... 2>&1 | tail -20", "python3 -m pytest -x -q tests/",
		"uv run python gen.py --out build", "node --enable-source-maps dist/main.js", "cat <<'EOF' | python3\nprint(1)\nEOF",
		"find . -name '*.go' -exec grep -l TODO {} +", "npm run build && npx tsc --noEmit",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			Analyze(l)
		}
	}
}
