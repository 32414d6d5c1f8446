package shell

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// maxBraceFields bounds the words one brace expansion may produce before
// the word is treated as unknown (a guard against {1..100000}).
const maxBraceFields = 64

// word is one argument as far as it can be known without running anything.
type word struct {
	// val is the unquoted value of a literal word, or the source text of a
	// word that holds an expansion.
	val string
	// lit reports whether val is exactly what the command receives, up to
	// pathname expansion (see glob).
	lit bool
	// glob reports an unquoted pattern character: the shell may replace the
	// word by file names.
	glob bool
}

// named reports whether w can serve as a command name with certainty.
func (w word) named() bool { return w.lit && !w.glob }

// vals returns the values of ws.
func vals(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.val
	}
	return out
}

// words expands ws the way the shell would before running a command: brace
// expansion and quote removal, but no parameter expansion, command
// substitution or globbing, which stay as source text.
func (a *analyzer) words(ws []*syntax.Word) []word {
	out := make([]word, 0, len(ws))
	for _, w := range ws {
		out = append(out, a.expandWord(w)...)
	}
	return out
}

// expandWord expands one word into the words it becomes.
func (a *analyzer) expandWord(w *syntax.Word) []word {
	if !literalParts(w.Parts) {
		return []word{{val: a.source(w)}}
	}
	glob := hasGlob(w.Parts)
	split := &syntax.Word{Parts: slices.Clone(w.Parts)}
	if !syntax.SplitBraces(split) {
		return []word{{val: unquote(w.Parts), lit: true, glob: glob}}
	}
	quoted := slices.ContainsFunc(w.Parts, func(p syntax.WordPart) bool {
		_, isLit := p.(*syntax.Lit)
		return !isLit
	})
	var out []word
	for bw, err := range expand.BracesSeq(nil, split) {
		if err != nil || len(out) == maxBraceFields {
			return []word{{val: a.source(w)}}
		}
		v := unquote(bw.Parts)
		if v == "" && !quoted {
			continue // the shell drops empty unquoted words: {rm,} is just rm
		}
		out = append(out, word{val: v, lit: true, glob: glob})
	}
	return out
}

// literalWord returns the unquoted value of w and whether it is a plain
// literal (no expansion, no unquoted pattern, no brace expansion): what a
// redirection target or a script argument must be to be known.
func literalWord(w *syntax.Word) (string, bool) {
	if w == nil || !literalParts(w.Parts) || hasGlob(w.Parts) {
		return "", false
	}
	if syntax.SplitBraces(&syntax.Word{Parts: slices.Clone(w.Parts)}) {
		return "", false
	}
	return unquote(w.Parts), true
}

// source prints a word as it was written.
func (a *analyzer) source(w *syntax.Word) string {
	var b strings.Builder
	if err := a.printer.Print(&b, w); err != nil {
		return "?"
	}
	return b.String()
}

// literalParts reports whether parts hold no expansion of any kind.
func literalParts(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
		case *syntax.DblQuoted:
			if !literalParts(p.Parts) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// hasGlob reports whether unquoted parts hold a pattern the shell would
// match against file names: *, ?, [...] or an extended glob.
func hasGlob(parts []syntax.WordPart) bool {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ExtGlob:
			return true
		case *syntax.Lit:
			if litHasGlob(p.Value) {
				return true
			}
		}
	}
	return false
}

// litHasGlob scans an unquoted literal for pattern characters, skipping
// backslash-escaped ones. A lone "[" (the test command) is not a pattern.
func litHasGlob(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.Contains(s[i+1:], "]") {
				return true
			}
		}
	}
	return false
}

// unquote joins literal parts after quote removal.
func unquote(parts []syntax.WordPart) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, ""))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unescape(l.Value, "$`\"\\\n"))
				}
			}
		case *syntax.ExtGlob:
			b.WriteString(p.Op.String() + p.Pattern.Value + ")")
		}
	}
	return b.String()
}

// unescape removes backslashes: before any character when special is ""
// (unquoted text), else only before the characters in special (inside
// double quotes). A backslash before a newline removes both.
func unescape(s, special string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case special == "" || strings.IndexByte(special, next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// ansiC decodes the escapes of a $'...' string as Bash does.
func ansiC(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		text, used, nul := ansiEscape(s[i+1:])
		switch {
		case nul:
			return b.String() // a NUL byte ends the string for the shell
		case used == 0:
			b.WriteByte('\\') // an unknown escape is kept as written
		default:
			b.WriteString(text)
			i += used
		}
	}
	return b.String()
}

// ansiEscape decodes the escape at the start of s (after the backslash):
// its text, how many bytes of s it used (0 for an unknown escape) and
// whether it is a NUL byte.
func ansiEscape(s string) (text string, used int, nul bool) {
	if c, ok := simpleEscape(s[0]); ok {
		return string(c), 1, false
	}
	digits := func(start, most, base int) (int64, int) {
		end := start
		for end < len(s) && end-start < most && isDigit(s[end], base) {
			end++
		}
		v, _ := strconv.ParseInt(s[start:end], base, 64)
		return v, end
	}
	switch c := s[0]; {
	case c >= '0' && c <= '7':
		v, end := digits(0, 3, 8)
		return string([]byte{byte(v)}), end, byte(v) == 0
	case c == 'x' || c == 'u' || c == 'U':
		most := 2 // \xHH, \uHHHH, \UHHHHHHHH
		switch c {
		case 'u':
			most = 4
		case 'U':
			most = 8
		}
		v, end := digits(1, most, 16)
		switch {
		case end == 1:
			return "", 0, false
		case c == 'x':
			return string([]byte{byte(v)}), end, v == 0
		case v > utf8.MaxRune:
			return "", end, false
		}
		return string(rune(v)), end, v == 0
	case c == 'c' && len(s) > 1:
		v := s[1] & 0x1f
		return string([]byte{v}), 2, v == 0
	}
	return "", 0, false
}

// simpleEscape maps the one-letter escapes of $'...'.
func simpleEscape(c byte) (byte, bool) {
	switch c {
	case 'a':
		return 7, true
	case 'b':
		return 8, true
	case 'e', 'E':
		return 27, true
	case 'f':
		return 12, true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return 11, true
	case '\\', '\'', '"', '?':
		return c, true
	}
	return 0, false
}

// isDigit reports whether c is a digit in base 8 or 16.
func isDigit(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '7':
		return true
	case c == '8' || c == '9':
		return base == 16
	case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}
