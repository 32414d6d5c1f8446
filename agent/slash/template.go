package slash

import (
	"fmt"
	"strings"
)

// argsPlaceholder is replaced by the command's arguments.
const argsPlaceholder = "{{args}}"

// kind is what a piece of a template is.
type kind int

const (
	literal  kind = iota // text kept as it is
	argsRef              // {{args}}
	fileRef              // @{path}
	shellRef             // !{command}
)

// piece is one part of a parsed template; text is the literal text or the
// inside of the block.
type piece struct {
	kind kind
	text string
}

// parseTemplate splits a prompt template into literal text, {{args}} and
// @{...} / !{...} blocks. A block ends at the brace that balances its
// opening one, so `!{awk '{print $1}'}` is one block.
func parseTemplate(s string) ([]piece, error) {
	var out []piece
	start := 0 // start of the pending literal
	flush := func(end int) {
		if end > start {
			out = append(out, piece{kind: literal, text: s[start:end]})
		}
	}
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], argsPlaceholder):
			flush(i)
			out = append(out, piece{kind: argsRef})
			i += len(argsPlaceholder)
			start = i
		case strings.HasPrefix(s[i:], "@{") || strings.HasPrefix(s[i:], "!{"):
			end := closing(s, i+2)
			if end < 0 {
				return nil, fmt.Errorf("%w: %s at line %d", ErrUnclosed, s[i:i+2], strings.Count(s[:i], "\n")+1)
			}
			flush(i)
			k := fileRef
			if s[i] == '!' {
				k = shellRef
			}
			out = append(out, piece{kind: k, text: s[i+2 : end]})
			i = end + 1
			start = i
		default:
			i++
		}
	}
	flush(len(s))
	return out, nil
}

// closing returns the index of the brace that closes a block whose inside
// starts at from, or -1.
func closing(s string, from int) int {
	depth := 1
	for j := from; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}
