package tools

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// maxLinkHops bounds how many dangling symlinks Resolve follows by hand, so a
// cycle of links cannot loop forever.
const maxLinkHops = 40

// Roots is the set of directories a session may touch: the primary root (the
// session's working directory) first, then additional roots. Every root is
// stored absolute, cleaned and with symlinks resolved, so confinement checks
// compare real locations. Roots is safe for concurrent use; roots can be
// added while sessions run.
type Roots struct {
	// mu guards dirs and readOnly.
	mu sync.RWMutex
	// dirs holds the resolved roots; dirs[0] is the primary root.
	dirs []string
	// readOnly are directories tools may read but that are not workspace
	// roots (the session's saved command output).
	readOnly []string
}

// NewRoots builds the root set. Every directory must be absolute and exist.
func NewRoots(primary string, extra ...string) (*Roots, error) {
	p, err := checkRoot(primary)
	if err != nil {
		return nil, err
	}
	r := &Roots{dirs: []string{p}}
	for _, dir := range extra {
		if err := r.Add(dir); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// checkRoot validates one root directory and returns its resolved form.
func checkRoot(dir string) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("%w: %q is not an absolute path", ErrBadRoot, dir)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(dir))
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadRoot, err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadRoot, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%w: %s is not a directory", ErrBadRoot, dir)
	}
	return real, nil
}

// Add adds a root at run time (a workspace folder the editor opened). Adding
// a root already present is a no-op.
func (r *Roots) Add(dir string) error {
	real, err := checkRoot(dir)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Contains(r.dirs, real) {
		r.dirs = append(r.dirs, real)
	}
	return nil
}

// Primary returns the session root, against which relative paths resolve.
func (r *Roots) Primary() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.dirs[0]
}

// All returns a copy of every root, the primary first.
func (r *Roots) All() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.dirs)
}

// Resolve turns a path from the model into an absolute, cleaned path with
// symlinks resolved, and checks that it lies inside a root. Relative paths
// (and "") are relative to the primary root. Symlinks are resolved on the
// longest prefix that exists, so a file not yet created under a symlinked
// directory resolves to its real location. Outside every root the error wraps
// ErrOutsideRoots and names the allowed roots.
func (r *Roots) Resolve(path string) (string, error) {
	dirs := r.All()
	real, err := absIn(dirs[0], path)
	if err != nil {
		return "", err
	}
	r.mu.RLock()
	readable := rootOf(r.readOnly, real) != ""
	r.mu.RUnlock()
	if rootOf(dirs, real) == "" && !readable {
		return "", fmt.Errorf("%w: %s is not inside any of them; allowed roots: %s",
			ErrOutsideRoots, path, strings.Join(dirs, ", "))
	}
	return real, nil
}

// Abs resolves path the way Resolve does (relative to the primary root,
// cleaned, symlinks resolved on the longest existing prefix) without
// confining it to the roots. The editing tools use it: a write outside the
// roots may be proposed, and the policy then always asks the user.
func (r *Roots) Abs(path string) (string, error) {
	return absIn(r.Primary(), path)
}

// absIn is Abs with the primary root given.
func absIn(primary, path string) (string, error) {
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(primary, p)
	}
	return resolveExisting(filepath.Clean(p))
}

// Contains reports whether path resolves to a location inside a root.
func (r *Roots) Contains(path string) bool {
	dirs := r.All()
	real, err := absIn(dirs[0], path)
	return err == nil && rootOf(dirs, real) != ""
}

// AllowRead lets Resolve accept paths under dir (which must exist) without
// making it a root: Contains, which decides where writes need no extra
// question, still excludes it.
func (r *Roots) AllowRead(dir string) error {
	d, err := checkRoot(dir)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.readOnly = append(r.readOnly, d)
	return nil
}

// RootOf returns the root holding the absolute, resolved path abs (the
// deepest one when roots nest), or false when none does.
func (r *Roots) RootOf(abs string) (string, bool) {
	root := rootOf(r.All(), abs)
	return root, root != ""
}

// Display returns how a tool shows a path to the model: relative to the
// primary root when inside it (so it can be passed back as is), else absolute.
func (r *Roots) Display(abs string) string {
	primary := r.Primary()
	if !Within(primary, abs) {
		return abs
	}
	rel, err := filepath.Rel(primary, abs)
	if err != nil {
		return abs
	}
	return filepath.ToSlash(rel)
}

// DisplayDir is Display for a directory named in a sentence: the primary
// root itself reads "the session root" rather than ".".
func (r *Roots) DisplayDir(abs string) string {
	if d := r.Display(abs); d != "." {
		return d
	}
	return "the session root"
}

// anchorOf returns the deepest root or read-only directory holding the
// absolute, resolved path abs, or "" when none does.
func (r *Roots) anchorOf(abs string) string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a := rootOf(r.dirs, abs)
	if ro := rootOf(r.readOnly, abs); len(ro) > len(a) {
		a = ro
	}
	return a
}

// isAnchor reports whether abs is itself a root or read-only directory.
func (r *Roots) isAnchor(abs string) bool { return r.anchorOf(abs) == abs }

// rootOf returns the deepest root in dirs that holds abs, or "".
func rootOf(dirs []string, abs string) string {
	best := ""
	for _, d := range dirs {
		if Within(d, abs) && len(d) > len(best) {
			best = d
		}
	}
	return best
}

// Within reports whether abs is dir or lies below it. Both must be clean
// absolute paths.
func Within(dir, abs string) bool {
	if abs == dir {
		return true
	}
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return strings.HasPrefix(abs, prefix)
}

// resolveExisting resolves symlinks on the longest existing prefix of the
// clean absolute path p and appends the rest. A dangling symlink is followed
// by hand, so it cannot smuggle a path out of the roots.
func resolveExisting(p string) (string, error) {
	var rest []string
	cur := p
	for hops := 0; ; {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...), nil
		}
		if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&os.ModeSymlink != 0 {
			if hops++; hops > maxLinkHops {
				return "", fmt.Errorf("too many levels of symbolic links in %s", p)
			}
			target, rerr := os.Readlink(cur)
			if rerr != nil {
				return "", fmt.Errorf("resolve %s: %w", p, rerr)
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(cur), target)
			}
			cur = filepath.Clean(target)
			continue
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}
