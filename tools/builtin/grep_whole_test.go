package builtin

import (
	"regexp"
	"strings"
	"testing"
)

// TestWholeFileRegexpNeverMissesALine checks the whole-file pre-check
// matches every text in which some line matches.
func TestWholeFileRegexpNeverMissesALine(t *testing.T) {
	text := "first line\n  foo bar\r\nbaz foo\nend"
	for _, pattern := range []string{`^foo`, `^\s+foo`, `foo$`, `bar$`, `baz foo$`, `(?i)FOO`, `\Aend`, `a.b`,
		`^end$`, `(?-m)^baz`, `line\nfoo`, `first`} {
		re := regexp.MustCompile(pattern)
		lineMatch := false
		for line := range strings.SplitSeq(text, "\n") {
			lineMatch = lineMatch || re.MatchString(line)
		}
		whole := wholeFileRegexp(pattern)
		if whole != nil && lineMatch && !whole.MatchString(text) {
			t.Errorf("%q matches a line but its whole-file form %q misses the text", pattern, whole)
		}
	}
	if wholeFileRegexp(`\Aend`) != nil {
		t.Error(`\A is kept: it would only match the file's start`)
	}
}
