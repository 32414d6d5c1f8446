package builtin

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The per-directory ignore files honoured. Gemini CLI's .geminiignore is read
// after .gitignore, so its patterns (negations included) take precedence.
const (
	gitIgnoreFile    = ".gitignore"
	geminiIgnoreFile = ".geminiignore"
)

// ignoreRules are the ignore patterns in force in one directory: its own
// files' patterns, then (through parent) those of the directories above it up
// to the root, then the repository's .git/info/exclude and the user's global
// excludes file. Deeper patterns take precedence, as in git.
type ignoreRules struct {
	parent *ignoreRules
	// depth is how many components the rules' directory is below the root;
	// patterns match the path below it.
	depth int
	set   patternSet
}

// match reports whether path (components relative to the root) is ignored.
// Only the path itself is tested; callers prune ignored directories, so a
// file under an ignored directory is never asked about.
func (r *ignoreRules) match(path []string, isDir bool) bool {
	for rs := r; rs != nil; rs = rs.parent {
		if len(path) <= rs.depth {
			continue
		}
		if p := rs.set.last(path[rs.depth:], isDir); p != nil {
			return !p.negate
		}
	}
	return false
}

// ignoreTree loads and caches the ignore rules of the directories under one
// root. A nil *ignoreTree ignores nothing (respect_git_ignore false). It is
// safe for concurrent use and lives for one tool call.
type ignoreTree struct {
	root string
	// base holds the rules that apply everywhere below root (exclude and
	// global files); nil when there are none.
	base *ignoreRules
	// mu guards dirs.
	mu sync.Mutex
	// dirs caches rules by slash-joined directory path relative to root.
	dirs map[string]*ignoreRules
}

// newIgnoreTree returns the rules for the directories under root: the
// global excludes file, root's .git/info/exclude, then the ignore files of
// each directory.
func newIgnoreTree(root string) *ignoreTree {
	t := &ignoreTree{root: root, dirs: map[string]*ignoreRules{}}
	for _, file := range []string{globalExcludesFile(root), infoExcludeFile(root)} {
		if file == "" {
			continue
		}
		if ps := readPatterns(file, nil); len(ps) > 0 {
			t.base = &ignoreRules{parent: t.base, set: newPatternSet(ps)}
		}
	}
	return t
}

// rules returns the rules in force in directory dir (components relative to
// the root), loading the ignore files from the root down on first use.
func (t *ignoreTree) rules(dir []string) *ignoreRules {
	return t.rulesLoading(dir, func() []ignorePattern {
		return loadPatterns(filepath.Join(t.root, filepath.Join(dir...)))
	})
}

// rulesListed is rules for a directory the caller has open and listed:
// only the ignore files the listing holds are read, through open.
func (t *ignoreTree) rulesListed(dir []string, listed []string, open func(name string) (io.ReadCloser, error)) *ignoreRules {
	return t.rulesLoading(dir, func() []ignorePattern {
		var ps []ignorePattern
		for _, name := range []string{gitIgnoreFile, geminiIgnoreFile} {
			if !slices.Contains(listed, name) {
				continue
			}
			if f, err := open(name); err == nil {
				ps = scanPatterns(f, ps)
				_ = f.Close()
			}
		}
		return ps
	})
}

// rulesLoading returns dir's cached rules, or builds them from its
// parent's and the patterns load reads from dir's own ignore files.
func (t *ignoreTree) rulesLoading(dir []string, load func() []ignorePattern) *ignoreRules {
	if t == nil {
		return nil
	}
	key := strings.Join(dir, "/")
	t.mu.Lock()
	r, ok := t.dirs[key]
	t.mu.Unlock()
	if ok {
		return r
	}
	parent := t.base
	if len(dir) > 0 {
		parent = t.rules(dir[:len(dir)-1])
	}
	r = parent
	if ps := load(); len(ps) > 0 {
		r = &ignoreRules{parent: parent, depth: len(dir), set: newPatternSet(ps)}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if prev, ok := t.dirs[key]; ok {
		return prev // another goroutine loaded it first: keep one copy
	}
	t.dirs[key] = r
	return r
}

// ignored reports whether the entry at path (components relative to the
// root) is ignored, either itself or through an ignored parent directory.
func (t *ignoreTree) ignored(path []string, isDir bool) bool {
	if t == nil {
		return false
	}
	for i := 1; i <= len(path); i++ {
		last := i == len(path)
		if t.rules(path[:i-1]).match(path[:i], isDir || !last) {
			return true
		}
	}
	return false
}

// loadPatterns reads the ignore files of directory abs. Unreadable or
// missing files add nothing.
func loadPatterns(abs string) []ignorePattern {
	var ps []ignorePattern
	for _, name := range []string{gitIgnoreFile, geminiIgnoreFile} {
		ps = readPatterns(filepath.Join(abs, name), ps)
	}
	return ps
}

// readPatterns appends the patterns of one ignore file to ps.
func readPatterns(file string, ps []ignorePattern) []ignorePattern {
	f, err := os.Open(file)
	if err != nil {
		return ps
	}
	defer f.Close()
	return scanPatterns(f, ps)
}

// scanPatterns appends the patterns r holds to ps.
func scanPatterns(r io.Reader, ps []ignorePattern) []ignorePattern {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if p, ok := parseIgnoreLine(sc.Text()); ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// relComponents splits abs, which lies inside root, into path components
// relative to root; root itself gives none.
func relComponents(root, abs string) []string {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == "." {
		return nil
	}
	return strings.Split(filepath.ToSlash(rel), "/")
}
