package model

import (
	"fmt"
	"strings"
)

// oneLineLimit bounds the length of a server message quoted by OneLine.
const oneLineLimit = 200

// OneLine trims a server message to one short line without a final period,
// so that providers can quote it inside their own sentence.
func OneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = strings.TrimRight(strings.TrimSpace(s), ".")
	if len(s) > oneLineLimit {
		s = strings.ToValidUTF8(s[:oneLineLimit], "") + "…"
	}
	return s
}

// Plural writes a count with its noun: "1 attempt" or "5 attempts".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// AfterAttempts is " after N attempts" when there was more than one, and ""
// otherwise, for error sentences that mention retries only when there were
// some.
func AfterAttempts(n int) string {
	if n <= 1 {
		return ""
	}
	return " after " + Plural(n, "attempt")
}
