package lsp

import (
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"companion/lspclient"
)

// findSymbol returns the position of symbol on the 1-based line of text:
// its first occurrence there as a whole word (else as any substring), in
// UTF-16 units as LSP counts them. The error is for the model.
func findSymbol(text string, line int, symbol string) (lspclient.Position, error) {
	lines := strings.Split(text, "\n")
	if line < 1 || line > len(lines) {
		return lspclient.Position{}, fmt.Errorf("line %d is outside the file (it has %d lines)", line, len(lines))
	}
	l := strings.TrimSuffix(lines[line-1], "\r")
	at := wordIndex(l, symbol)
	if at < 0 {
		at = strings.Index(l, symbol)
	}
	if symbol == "" || at < 0 {
		return lspclient.Position{}, fmt.Errorf("%q is not on line %d, which reads: %s", symbol, line, strings.TrimSpace(l))
	}
	return lspclient.Position{Line: uint32(line - 1), Character: utf16Len(l[:at])}, nil
}

// wordIndex is the byte offset of the first whole-word occurrence of w in
// s, or -1.
func wordIndex(s, w string) int {
	for from := 0; w != "" && from <= len(s); {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(w):])
		if !isWordRune(before) && !isWordRune(after) {
			return i
		}
		from = i + 1
	}
	return -1
}

// isWordRune reports whether r may be part of an identifier.
func isWordRune(r rune) bool {
	return r != utf8.RuneError && (r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
}

// utf16Len counts s in UTF-16 code units.
func utf16Len(s string) uint32 {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return uint32(n)
}

// lineOf returns the 1-based line of text, trimmed; "" past the end.
func lineOf(lines []string, line int) string {
	if line < 1 || line > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[line-1])
}

// fileLines reads a file's lines; nil when it cannot be read.
func fileLines(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Split(string(data), "\n")
}
