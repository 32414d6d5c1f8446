package shell

import (
	"slices"
	"strings"
)

// opts describes the options of a wrapper command, so the command it wraps
// can be found after them.
type opts struct {
	// flags are short options without a value.
	flags string
	// valued are short options taking a value, glued (-n5) or next (-n 5).
	valued string
	// optional are short options whose value, if any, is glued (-i{}).
	optional string
	// long are long options without a value (a glued "=value" is allowed).
	long []string
	// longVal are long options taking a value (--opt=v or --opt v).
	longVal []string
	// numeric accepts -N (nice -10).
	numeric bool
}

// skip consumes the leading options of ws and returns the words after them
// with the options seen (by letter or long name) and their values. It
// fails on an unknown option or a word that is not a plain literal, since
// either could hide the command.
func (o opts) skip(ws []word) ([]word, map[string]string, bool) {
	seen := map[string]string{}
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if !w.named() {
			return nil, nil, false
		}
		v := w.val
		switch {
		case v == "--":
			return ws[i+1:], seen, true
		case len(v) < 2 || v[0] != '-':
			return ws[i:], seen, true
		case strings.HasPrefix(v, "--"):
			next, ok := o.longOption(v[2:], ws[i+1:], seen)
			if !ok {
				return nil, nil, false
			}
			i += next
		case o.numeric && isNumber(v[1:]):
		default:
			next, ok := o.shortOptions(v[1:], ws[i+1:], seen)
			if !ok {
				return nil, nil, false
			}
			i += next
		}
	}
	return nil, seen, true
}

// longOption reads one long option; it returns how many following words it
// used as its value.
func (o opts) longOption(opt string, after []word, seen map[string]string) (int, bool) {
	name, val, glued := strings.Cut(opt, "=")
	switch {
	case slices.Contains(o.long, name):
		seen[name] = val
		return 0, true
	case !slices.Contains(o.longVal, name):
		return 0, false
	case glued:
		seen[name] = val
		return 0, true
	case len(after) == 0 || !after[0].lit:
		return 0, false
	}
	seen[name] = after[0].val
	return 1, true
}

// shortOptions reads a cluster of short options (the text after "-"); it
// returns how many following words it used as a value.
func (o opts) shortOptions(cluster string, after []word, seen map[string]string) (int, bool) {
	for j := 0; j < len(cluster); j++ {
		c := cluster[j : j+1]
		switch {
		case strings.Contains(o.flags, c):
			seen[c] = ""
		case strings.Contains(o.optional, c):
			seen[c] = cluster[j+1:]
			return 0, true
		case !strings.Contains(o.valued, c):
			return 0, false
		case j+1 < len(cluster):
			seen[c] = cluster[j+1:]
			return 0, true
		case len(after) == 0 || !after[0].lit:
			return 0, false
		default:
			seen[c] = after[0].val
			return 1, true
		}
	}
	return 0, true
}
