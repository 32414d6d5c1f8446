package builtin

import (
	"path"
	"strings"
)

// ignorePattern is one compiled line of an ignore file, with git's
// semantics: a pattern without a slash (a trailing one aside) matches a
// name at any depth below its file's directory; one with a slash is
// anchored there; "**" as a whole component spans any number of
// directories; a trailing "/" matches directories only; "!" re-includes.
type ignorePattern struct {
	// segs are the pattern's components (one for a name pattern).
	segs []ignoreSeg
	// anchored patterns match the path below the domain; the others the
	// last component only.
	anchored bool
	dirOnly  bool
	negate   bool
}

// ignoreSeg is one component of a pattern, classified so the common
// shapes ("build", "*.o") skip the general glob matcher.
type ignoreSeg struct {
	kind segKind
	// text is the literal name, the suffix for segSuffix, or the glob.
	text string
}

type segKind uint8

const (
	segLiteral    segKind = iota // the name itself
	segSuffix                    // "*" then a literal: "*.o"
	segAny                       // "*": any one name
	segDoubleStar                // "**": any number of names
	segGlob                      // anything else, matched by path.Match
)

// parseIgnoreLine compiles one line of an ignore file; ok is false for
// blank lines and comments.
func parseIgnoreLine(line string) (p ignorePattern, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	if line == "" || line[0] == '#' {
		return p, false
	}
	line = trimIgnoreSpaces(line)
	if line != "" && line[0] == '!' {
		p.negate, line = true, line[1:]
	}
	if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return p, false
	}
	p.anchored = strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	for s := range strings.SplitSeq(line, "/") {
		p.segs = append(p.segs, compileSeg(s))
	}
	return p, true
}

// trimIgnoreSpaces drops trailing spaces unless the last one is escaped
// with a backslash, as git does.
func trimIgnoreSpaces(line string) string {
	end := len(line)
	for end > 0 && line[end-1] == ' ' && (end < 2 || line[end-2] != '\\') {
		end--
	}
	return line[:end]
}

// compileSeg classifies one pattern component.
func compileSeg(s string) ignoreSeg {
	switch {
	case s == "**":
		return ignoreSeg{kind: segDoubleStar}
	case s == "*":
		return ignoreSeg{kind: segAny}
	case !strings.ContainsAny(s, `*?[\`):
		return ignoreSeg{kind: segLiteral, text: s}
	case s[0] == '*' && !strings.ContainsAny(s[1:], `*?[\`):
		return ignoreSeg{kind: segSuffix, text: s[1:]}
	}
	// git's "**" inside a component is an ordinary "*"; "[!x]" is "[^x]".
	for strings.Contains(s, "**") {
		s = strings.ReplaceAll(s, "**", "*")
	}
	s = strings.ReplaceAll(s, "[!", "[^")
	return ignoreSeg{kind: segGlob, text: s}
}

// match reports whether one name matches this component.
func (s ignoreSeg) match(name string) bool {
	switch s.kind {
	case segLiteral:
		return name == s.text
	case segSuffix:
		return strings.HasSuffix(name, s.text)
	case segAny, segDoubleStar:
		return true
	}
	ok, err := path.Match(s.text, name)
	return ok && err == nil
}

// matches reports whether the pattern matches rel, a path relative to the
// pattern's directory.
func (p *ignorePattern) matches(rel []string, isDir bool) bool {
	if len(rel) == 0 || (p.dirOnly && !isDir) {
		return false
	}
	if !p.anchored {
		return p.segs[0].match(rel[len(rel)-1])
	}
	return matchSegs(p.segs, rel)
}

// matchSegs matches components against pattern components, "**" taking
// zero or more of them.
func matchSegs(segs []ignoreSeg, rel []string) bool {
	for len(segs) > 0 {
		s := segs[0]
		if s.kind == segDoubleStar {
			if len(segs) == 1 {
				return len(rel) > 0 // "a/**" matches what is inside a
			}
			for i := 0; i <= len(rel); i++ {
				if matchSegs(segs[1:], rel[i:]) {
					return true
				}
			}
			return false
		}
		if len(rel) == 0 || !s.match(rel[0]) {
			return false
		}
		segs, rel = segs[1:], rel[1:]
	}
	return len(rel) == 0
}
