// Package slug turns titles into URL path segments.
package slug

import (
	"strings"
	"unicode"
)

// Slugify makes s fit for a URL path: lower-case letters and digits, words
// joined by single dashes, no dash at either end.
func Slugify(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}
