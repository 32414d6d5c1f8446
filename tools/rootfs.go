package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ErrPathChanged means a folder on a checked path became a symbolic link (or
// another folder) between the check and the file operation, so the
// operation was refused rather than following it.
var ErrPathChanged = errors.New("a folder on the path was replaced (by a symbolic link?) after the path was checked")

// Local file operations of the tools go through os.Root, so the kernel
// confines each one at the moment it happens, not when the path was
// checked. A path is opened from its anchor, the deepest root (or
// read-only directory) that holds it, one folder at a time: each folder
// must be a real directory, not a symbolic link, when it is opened, and
// must be the directory that was looked at (same device and inode). The
// paths tools pass are resolved (Roots.Resolve, Roots.Abs), so a symbolic
// link on them can only be one that appeared after the check. A path
// outside every root (a write the user approved) is anchored at the file
// system root, with the same rule all the way down.

// rootsKey carries a call's Roots in a context, so LocalFiles, reached
// through an editor's Files that falls back to the disk, confines its
// operations the way the tools' own local path does.
type rootsKey struct{}

// WithRoots returns ctx carrying roots.
func WithRoots(ctx context.Context, roots *Roots) context.Context {
	if roots == nil {
		return ctx
	}
	return context.WithValue(ctx, rootsKey{}, roots)
}

// rootsFrom returns the Roots ctx carries, or nil.
func rootsFrom(ctx context.Context) *Roots {
	r, _ := ctx.Value(rootsKey{}).(*Roots)
	return r
}

// anchorFor returns where a confined operation on abs starts: the deepest
// root or read-only directory holding it, else the file system root.
func anchorFor(roots *Roots, abs string) string {
	if roots != nil {
		if a := roots.anchorOf(abs); a != "" {
			return a
		}
	}
	return filepath.VolumeName(abs) + string(filepath.Separator)
}

// openDirAt opens dir (absolute, clean, symlinks resolved) below anchor,
// one folder at a time, refusing symbolic links. create makes missing
// folders (0o755) on the way.
func openDirAt(anchor, dir string, create bool) (*os.Root, error) {
	rel, err := filepath.Rel(anchor, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s is not below %s", dir, anchor)
	}
	r, err := os.OpenRoot(anchor)
	if err != nil {
		return nil, err
	}
	if rel == "." {
		return r, nil
	}
	for _, name := range strings.Split(rel, string(filepath.Separator)) {
		next, err := stepInto(r, name, create)
		_ = r.Close()
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", dir, err)
		}
		r = next
	}
	return r, nil
}

// stepInto opens the folder name in r. It must be a directory, not a
// symbolic link, and the directory opened must be the one looked at.
func stepInto(r *os.Root, name string, create bool) (*os.Root, error) {
	fi, err := r.Lstat(name)
	if create && errors.Is(err, fs.ErrNotExist) {
		if err := r.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		fi, err = r.Lstat(name)
	}
	switch {
	case err != nil:
		return nil, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("%s: %w", name, ErrPathChanged)
	case !fi.IsDir():
		return nil, fmt.Errorf("%s is not a directory", name)
	}
	next, err := r.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	got, err := next.Stat(".")
	if err != nil || !os.SameFile(fi, got) {
		_ = next.Close()
		return nil, fmt.Errorf("%s: %w", name, ErrPathChanged)
	}
	return next, nil
}

// openParent opens the folder holding abs, confined as openDirAt does
// from abs's anchor, and returns it with abs's base name.
func openParent(roots *Roots, abs string, create bool) (*os.Root, string, error) {
	dir, name := filepath.Split(abs)
	if name == "" {
		return nil, "", fmt.Errorf("%s names no file", abs)
	}
	dir = filepath.Clean(dir)
	anchor := anchorFor(roots, dir)
	if roots == nil {
		anchor = dir // no roots: trust the folder as named, confine the rest
		if create {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, "", fmt.Errorf("create directory: %w", err)
			}
		}
	}
	r, err := openDirAt(anchor, dir, create)
	if err != nil {
		return nil, "", err
	}
	return r, name, nil
}

// StatLocal returns the FileInfo of abs, confined (without roots, as
// os.Stat).
func StatLocal(roots *Roots, abs string) (fs.FileInfo, error) {
	if roots == nil || filepath.Dir(abs) == abs {
		return os.Stat(abs)
	}
	if roots.isAnchor(abs) {
		r, err := os.OpenRoot(abs)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return r.Stat(".")
	}
	r, name, err := openParent(roots, abs, false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Stat(name)
}

// OpenLocal opens the file abs for reading, confined (without roots, as
// os.Open).
func OpenLocal(roots *Roots, abs string) (*os.File, error) {
	if roots == nil {
		return os.Open(abs)
	}
	r, name, err := openParent(roots, abs, false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Open(name)
}

// OpenLocalDir opens the directory abs, confined.
func OpenLocalDir(roots *Roots, abs string) (*os.Root, error) {
	return openDirAt(anchorFor(roots, abs), abs, false)
}

// ReadDirLocal lists the directory abs, confined, sorted by name.
func ReadDirLocal(roots *Roots, abs string) ([]fs.DirEntry, error) {
	r, err := OpenLocalDir(roots, abs)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return ReadDirRoot(r, ".")
}

// ReadDirRoot lists the directory name in r, sorted by name.
func ReadDirRoot(r *os.Root, name string) ([]fs.DirEntry, error) {
	d, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// ReadLocal reads the whole file abs, confined, into one string (no copy
// beyond the read itself). A file over limit bytes, as its open handle
// says, is refused with an error wrapping ErrFileTooLarge before it is read;
// limit < 0 means no limit.
func ReadLocal(roots *Roots, abs string, limit int64) (string, error) {
	f, err := OpenLocal(roots, abs)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return readAllString(f, abs, limit)
}

// readAllString reads f, whose size its Stat gives, into a string.
func readAllString(f *os.File, abs string, limit int64) (string, error) {
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", fmt.Errorf("%s is a directory", abs)
	}
	if limit < 0 {
		limit = math.MaxInt64 - 1
	}
	if fi.Size() > limit {
		return "", fmt.Errorf("%s is %s: %w", abs, FormatSize(fi.Size()), ErrFileTooLarge)
	}
	var b strings.Builder
	b.Grow(int(fi.Size()) + 1) // +1: a final read sees EOF without growing
	n, err := io.Copy(&b, io.LimitReader(f, limit+1))
	if err != nil {
		return "", err
	}
	if n > limit {
		return "", fmt.Errorf("%s grew past %s: %w", abs, FormatSize(limit), ErrFileTooLarge)
	}
	return b.String(), nil
}

// FormatSize renders a byte count for people and models.
func FormatSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
