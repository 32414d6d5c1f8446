package builtin

import (
	"path"
	"strings"
)

// patternSet is the patterns of one directory's ignore files, indexed so an
// entry is tested against the few patterns that can match it: name
// patterns by their literal name or extension, the rest in order. The
// last matching pattern decides, as in git.
type patternSet struct {
	ps []ignorePattern
	// byName and byExt hold the indices, ascending, of unanchored
	// literal ("build") and "*.ext" patterns.
	byName, byExt map[string][]int
	// rest holds the indices of every other pattern, ascending.
	rest []int
}

func newPatternSet(ps []ignorePattern) patternSet {
	s := patternSet{ps: ps, byName: map[string][]int{}, byExt: map[string][]int{}}
	for i, p := range ps {
		switch {
		case !p.anchored && p.segs[0].kind == segLiteral:
			s.byName[p.segs[0].text] = append(s.byName[p.segs[0].text], i)
		case !p.anchored && p.segs[0].kind == segSuffix && isExt(p.segs[0].text):
			s.byExt[p.segs[0].text] = append(s.byExt[p.segs[0].text], i)
		default:
			s.rest = append(s.rest, i)
		}
	}
	return s
}

// isExt reports whether a suffix is a whole extension (".o"), which a
// name's own extension can be looked up by.
func isExt(suffix string) bool {
	return strings.LastIndexByte(suffix, '.') == 0
}

// last returns the last pattern matching rel (relative to the set's
// directory), or nil.
func (s *patternSet) last(rel []string, isDir bool) *ignorePattern {
	best := -1
	name := rel[len(rel)-1]
	best = s.lastOf(s.byName[name], best, rel, isDir)
	if ext := path.Ext(name); ext != "" {
		best = s.lastOf(s.byExt[ext], best, rel, isDir)
	}
	best = s.lastOf(s.rest, best, rel, isDir)
	if best < 0 {
		return nil
	}
	return &s.ps[best]
}

// lastOf returns the highest index in idx (ascending) above best whose
// pattern matches, else best.
func (s *patternSet) lastOf(idx []int, best int, rel []string, isDir bool) int {
	for i := len(idx) - 1; i >= 0 && idx[i] > best; i-- {
		if s.ps[idx[i]].matches(rel, isDir) {
			return idx[i]
		}
	}
	return best
}
