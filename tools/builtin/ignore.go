package builtin

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// The per-directory ignore files honoured. Gemini CLI's .geminiignore is read
// after .gitignore, so its patterns (negations included) take precedence.
const (
	gitIgnoreFile    = ".gitignore"
	geminiIgnoreFile = ".geminiignore"
)

// ignoreRules are the ignore patterns in force in one directory: its own
// files' patterns, then (through parent) those of the directories above it up
// to the root. Deeper patterns take precedence, as in git.
type ignoreRules struct {
	parent   *ignoreRules
	patterns []gitignore.Pattern
}

// match reports whether path (components relative to the root) is ignored.
// Only the path itself is tested; callers prune ignored directories, so a
// file under an ignored directory is never asked about.
func (r *ignoreRules) match(path []string, isDir bool) bool {
	for rs := r; rs != nil; rs = rs.parent {
		for i := len(rs.patterns) - 1; i >= 0; i-- {
			switch rs.patterns[i].Match(path, isDir) {
			case gitignore.Exclude:
				return true
			case gitignore.Include:
				return false
			}
		}
	}
	return false
}

// ignoreTree loads and caches the ignore rules of the directories under one
// root. A nil *ignoreTree ignores nothing (respect_git_ignore false). It is
// safe for concurrent use and lives for one tool call.
type ignoreTree struct {
	root string
	// mu guards dirs.
	mu sync.Mutex
	// dirs caches rules by slash-joined directory path relative to root.
	dirs map[string]*ignoreRules
}

// newIgnoreTree returns the rules for the directories under root.
func newIgnoreTree(root string) *ignoreTree {
	return &ignoreTree{root: root, dirs: map[string]*ignoreRules{}}
}

// rules returns the rules in force in directory dir (components relative to
// the root), loading the ignore files from the root down on first use.
func (t *ignoreTree) rules(dir []string) *ignoreRules {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rulesLocked(dir)
}

func (t *ignoreTree) rulesLocked(dir []string) *ignoreRules {
	key := strings.Join(dir, "/")
	if r, ok := t.dirs[key]; ok {
		return r
	}
	var parent *ignoreRules
	if len(dir) > 0 {
		parent = t.rulesLocked(dir[:len(dir)-1])
	}
	r := parent
	if ps := loadPatterns(filepath.Join(t.root, filepath.Join(dir...)), dir); len(ps) > 0 {
		r = &ignoreRules{parent: parent, patterns: ps}
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

// loadPatterns reads the ignore files of directory abs; domain is its path
// relative to the root. Unreadable or missing files add nothing.
func loadPatterns(abs string, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	for _, name := range []string{gitIgnoreFile, geminiIgnoreFile} {
		f, err := os.Open(filepath.Join(abs, name))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := strings.TrimSuffix(sc.Text(), "\r")
			if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
				continue
			}
			// A leading "\#" or "\!" stays escaped: the matcher reads it
			// as the literal character, and it is then neither a comment
			// nor a negation.
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
		_ = f.Close()
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
