package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// StateDir returns the directory under base (for example
// $XDG_STATE_HOME/companion/checkpoints) that holds the checkpoints of the
// project at root: base/<first 16 hex digits of sha256(root)>. root is made
// absolute and its symlinks resolved when possible, so one project gets one
// directory however it is reached.
func StateDir(base, root string) string {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	root = realPath(root)
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(base, hex.EncodeToString(sum[:8]))
}

// relPaths turns the paths given to Save into sorted, unique, slash-separated
// paths relative to the root. The root itself is dropped.
func (s *Store) relPaths(paths []string) ([]string, error) {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		rel, err := s.rel(p)
		if err != nil {
			return nil, err
		}
		if rel != "." {
			out = append(out, rel)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// rel returns p relative to the root, checked by validRel.
func (s *Store) rel(p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	p = filepath.Clean(p)
	for _, r := range []string{s.root, s.realRoot} {
		if rel, ok := within(r, p); ok {
			rel = filepath.ToSlash(rel)
			return rel, validRel(rel)
		}
	}
	return "", fmt.Errorf("%w: %s", ErrOutsideRoot, p)
}

// validRel reports whether rel (slash-separated, relative to the root) may be
// snapshotted and restored: it must stay inside the root and not enter a
// .git directory.
func validRel(rel string) error {
	if rel == "." {
		return nil
	}
	if rel == "" || path.IsAbs(rel) || filepath.IsAbs(rel) || path.Clean(rel) != rel ||
		rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "\\") {
		return fmt.Errorf("%w: %s", ErrOutsideRoot, rel)
	}
	for _, part := range strings.Split(rel, "/") {
		if strings.EqualFold(part, ".git") {
			return fmt.Errorf("%w: %s", ErrGitDir, rel)
		}
	}
	return nil
}

// within reports whether p lies in dir (or is dir), and p relative to dir.
func within(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
}

// insideAny reports whether p lies in any of dirs.
func insideAny(p string, dirs ...string) bool {
	for _, d := range dirs {
		if _, ok := within(d, p); ok {
			return true
		}
	}
	return false
}

// realPath resolves the symlinks of p's longest existing prefix, keeping the
// rest as it is; p when nothing resolves.
func realPath(p string) string {
	rest := ""
	for dir := p; ; dir = filepath.Dir(dir) {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		if _, err := os.Lstat(dir); err == nil || filepath.Dir(dir) == dir {
			return p
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}
