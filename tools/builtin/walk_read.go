package builtin

import (
	"context"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
)

const (
	// walkReaders is how many directories a walk reads at once.
	walkReaders = 8
	// walkAhead is how many of one directory's subdirectories a walk reads
	// ahead of the one it is visiting.
	walkAhead = 16
)

// dirReader reads a walk's directories in goroutines of their own, at most
// walkReaders at a time, judging each entry by the ignore rules as it goes
// so the matching runs in parallel too.
type dirReader struct {
	w   *walker
	ctx context.Context
	sem chan struct{}
	wg  sync.WaitGroup
	// mu guards open, the directories read and not yet closed: a
	// directory stays open until its entries are visited, so its
	// subdirectories open from it in one step, not from the start.
	mu   sync.Mutex
	open map[*os.Root]struct{}
}

// walkEntry is one entry of a directory read, judged.
type walkEntry struct {
	d fs.DirEntry
	// fromRoot and rel are the entry's components relative to the root and
	// to the walk's start.
	fromRoot, rel []string
	// ignored entries are left out; descend marks a directory to walk.
	ignored, descend bool
	// read is the subdirectory's read, once started.
	read *dirRead
}

// dirRead is a directory read in progress.
type dirRead struct {
	done    chan struct{}
	entries []walkEntry
	// dir is the directory, open until its entries are visited (done).
	dir *os.Root
}

// wait returns the read's entries once they are in, or ctx's error.
func (d *dirRead) wait(ctx context.Context) ([]walkEntry, error) {
	select {
	case <-d.done:
		return d.entries, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// start reads the directory fromRoot (rel below the start; name in the
// open directory parent) in the background.
func (r *dirReader) start(parent *os.Root, name string, fromRoot, rel []string) *dirRead {
	d := &dirRead{done: make(chan struct{})}
	r.wg.Go(func() {
		defer close(d.done)
		select {
		case r.sem <- struct{}{}:
		case <-r.ctx.Done():
			return
		}
		defer func() { <-r.sem }()
		dir, err := parent.OpenRoot(name)
		if err != nil {
			return // unreadable directories are empty, as git and rg skip them
		}
		r.mu.Lock()
		r.open[dir] = struct{}{}
		r.mu.Unlock()
		d.dir, d.entries = dir, r.read(dir, fromRoot, rel)
	})
	return d
}

// done closes a directory whose entries have been visited.
func (r *dirReader) done(d *dirRead) {
	if d.dir == nil {
		return
	}
	r.mu.Lock()
	delete(r.open, d.dir)
	r.mu.Unlock()
	_ = d.dir.Close()
}

// closeAll closes the directories read ahead and never visited (a walk
// that stopped early); the readers have finished.
func (r *dirReader) closeAll() {
	for dir := range r.open {
		_ = dir.Close()
	}
	clear(r.open)
}

// read lists one directory, sorted by name, without .git; unreadable
// directories are empty, as git and rg skip them. Entries are typed by
// the listing (listTyped: no stat each); the files the walk's files
// filter keeps carry their FileInfo, read through the directory's own
// handle so it stays confined, and the others are left out.
func (r *dirReader) read(dir *os.Root, fromRoot, rel []string) []walkEntry {
	w := r.w
	des, err := listTyped(dir)
	if err != nil && len(des) == 0 {
		return nil
	}
	slices.SortFunc(des, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	rules := w.ignore.rulesListed(fromRoot, ignoreFilesListed(des), func(name string) (io.ReadCloser, error) {
		return dir.Open(name)
	})
	out := make([]walkEntry, 0, len(des))
	for _, d := range des {
		name := d.Name()
		if name == gitDir {
			continue
		}
		e := walkEntry{
			d:        d,
			fromRoot: append(fromRoot[:len(fromRoot):len(fromRoot)], name),
			rel:      append(rel[:len(rel):len(rel)], name),
		}
		e.ignored = rules.match(e.fromRoot, d.IsDir())
		e.descend = d.IsDir() && !e.ignored && (w.maxDepth == 0 || len(e.rel) < w.maxDepth)
		if w.files != nil && !e.ignored && d.Type().IsRegular() {
			if !w.files(e.rel) {
				continue
			}
			if fi, err := dir.Lstat(name); err == nil {
				e.d = fs.FileInfoToDirEntry(fi)
			}
		}
		out = append(out, e)
	}
	return out
}

// ignoreFilesListed returns the names of the ignore files among a
// directory's entries.
func ignoreFilesListed(des []fs.DirEntry) []string {
	var names []string
	for _, d := range des {
		if n := d.Name(); n == gitIgnoreFile || n == geminiIgnoreFile {
			names = append(names, n)
		}
	}
	return names
}
