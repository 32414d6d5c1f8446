package builtin

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"companion/tools"
)

// gitDir is never listed or searched, whatever the ignore rules say.
const gitDir = ".git"

// walker visits the regular files under a directory in a fixed order (depth
// first, each directory's entries sorted by name), skipping .git, entries the
// ignore rules exclude and symlinks (never followed, so a walk cannot leave
// the roots). Every directory is read through an os.Root opened on dir, so
// a folder swapped for a symbolic link during the walk cannot lead it out.
// It checks ctx at every directory.
type walker struct {
	// roots confines the opening of dir (see tools.OpenLocalDir).
	roots *tools.Roots
	// top is dir, opened; walk opens it when the caller has not, and
	// closes what it opened.
	top *os.Root
	// root is the workspace root holding dir; ignore rules are relative to it.
	root string
	// dir is where the walk starts.
	dir string
	// ignore holds the ignore rules; nil ignores nothing.
	ignore *ignoreTree
	// maxDepth limits how deep the walk goes below dir (1: only dir's own
	// entries); 0 means no limit.
	maxDepth int
	// ignored counts entries skipped by the ignore rules.
	ignored int
	// rg, when set, is the ripgrep binary that lists the files instead of
	// the Go walk, in no particular order (see walkRipgrep).
	rg string
	// nameGlob, when set, is a glob every file's name matches (the last
	// component of the caller's pattern): rg lists only those. foldCase
	// matches it ignoring case.
	nameGlob string
	foldCase bool
	// denied, when set, reports the files a deny rule keeps from being
	// read (tools.Env.Denied): they are skipped like ignored ones, but
	// not counted.
	denied func(abs string) bool
	// files, when set, picks the files to visit by their components
	// relative to the start; the others are skipped without a word, and
	// the visited ones' entries carry their FileInfo (d.Info makes no
	// further call in the Go walk).
	files func(rel []string) bool
}

// skip reports whether the file at abs is one a deny rule hides.
func (w *walker) skip(abs string) bool { return w.denied != nil && w.denied(abs) }

// visitFunc receives one regular file: its absolute path, its components
// relative to the walk's start directory, and its directory entry. It returns
// errStopWalk to end the walk early.
type visitFunc func(abs string, rel []string, d fs.DirEntry) error

// walk runs visit on every file. It returns ctx's error when cancelled.
func (w *walker) walk(ctx context.Context, visit visitFunc) error {
	if w.top == nil {
		if err := w.open(); err != nil {
			return nil // an unreadable start is an empty walk, as below
		}
		defer w.close()
	}
	if w.rg != "" {
		err := w.walkRipgrep(ctx, visit)
		if !errors.Is(err, errRgInexact) && !errors.Is(err, errRipgrep) {
			if errors.Is(err, errStopWalk) {
				return nil
			}
			return err
		}
		w.ignored = 0
	}
	ctx, cancel := context.WithCancel(ctx)
	r := &dirReader{w: w, ctx: ctx, sem: make(chan struct{}, walkReaders), open: map[*os.Root]struct{}{}}
	defer func() {
		cancel()
		r.wg.Wait() // the readers are done before the caller closes w.top
		r.closeAll()
	}()
	fromRoot := relComponents(w.root, w.dir)
	err := w.walkDir(ctx, r, w.dir, r.start(w.top, ".", fromRoot, nil), visit)
	if errors.Is(err, errStopWalk) {
		return nil
	}
	return err
}

// walkDir visits one directory's entries in order, reading up to
// walkAhead of its subdirectories ahead (in parallel, with their ignore
// rules applied) while it visits the ones before them.
func (w *walker) walkDir(ctx context.Context, r *dirReader, abs string, read *dirRead, visit visitFunc) error {
	entries, err := read.wait(ctx)
	if err != nil {
		return err
	}
	defer r.done(read)
	next, inFlight := 0, 0
	for i := range entries {
		for ; next < len(entries) && inFlight < walkAhead; next++ {
			if c := &entries[next]; c.descend {
				c.read = r.start(read.dir, c.d.Name(), c.fromRoot, c.rel)
				inFlight++
			}
		}
		e := &entries[i]
		if e.ignored {
			w.ignored++
			continue
		}
		childAbs := filepath.Join(abs, e.d.Name())
		switch {
		case e.descend:
			inFlight--
			err = w.walkDir(ctx, r, childAbs, e.read, visit)
			e.read = nil
		case e.d.Type().IsRegular() && !w.skip(childAbs):
			err = visit(childAbs, e.rel, e.d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// open opens the walk's start directory.
func (w *walker) open() error {
	top, err := tools.OpenLocalDir(w.roots, w.dir)
	if err != nil {
		return err
	}
	w.top = top
	return nil
}

// close closes the start directory.
func (w *walker) close() {
	if w.top != nil {
		_ = w.top.Close()
		w.top = nil
	}
}

// openFile opens a file the walk found, by its components relative to
// the start directory, through the walk's os.Root.
func (w *walker) openFile(rel []string) (*os.File, error) {
	return w.top.Open(relPath(rel))
}

// relPath joins path components for an os.Root ("." for none).
func relPath(rel []string) string {
	if len(rel) == 0 {
		return "."
	}
	return filepath.Join(rel...)
}
