package ide

import (
	"context"
	"slices"
	"sync"
	"time"
)

// ReadFileFunc reads a file's current text, from the editor's buffer where
// the editor offers one. Tracker uses it for the lines around the cursor.
type ReadFileFunc func(ctx context.Context, path string) (string, error)

// Tracker holds one session's editor context and turns it into the text the
// model reads: all of it on the first turn and after MarkStale, afterwards
// only what changed. It is safe for concurrent use.
type Tracker struct {
	readFile ReadFileFunc

	// mu guards the fields below.
	mu sync.Mutex
	// cur is the merged, normalised context; its slices are never edited
	// in place, only replaced, so a copy of the struct is a snapshot.
	cur Context
	// version counts changes to cur.
	version uint64
	// last is cur as of the last Render, lastVersion its version.
	last        Context
	lastVersion uint64
	// stale is true until the first Render and after MarkStale: the next
	// Render is full.
	stale bool
	// first, set by Await, is closed once an editor connecting in the
	// background has sent its first context; the next Render waits for it,
	// at most firstWait.
	first     <-chan struct{}
	firstWait time.Duration
}

// NewTracker returns an empty Tracker. readFile may be nil; then Render
// leaves out the lines around the cursor.
func NewTracker(readFile ReadFileFunc) *Tracker {
	return &Tracker{readFile: readFile, stale: true}
}

// Update merges c into the tracked context. Each field of c replaces the
// tracked one as a whole, and a nil field (absent in JSON) keeps the
// previous value, so an editor may send only what changed: openFiles
// alone on a cursor move, diagnostics alone when they change. Lists are
// always complete: openFiles lists every open file, diagnostics every file
// that has any. c is normalised first. An update that changes nothing
// costs no Render work.
func (t *Tracker) Update(c Context) {
	c = c.Normalize()
	t.mu.Lock()
	defer t.mu.Unlock()
	next := t.cur
	if c.WorkspaceFolders != nil {
		next.WorkspaceFolders = c.WorkspaceFolders
	}
	if c.OpenFiles != nil {
		next.OpenFiles = c.OpenFiles
	}
	if c.Diagnostics != nil {
		next.Diagnostics = c.Diagnostics
	}
	if c.IsTrusted != nil {
		next.IsTrusted = c.IsTrusted
	}
	if !equalContext(t.cur, next) {
		t.cur = next
		t.version++
	}
}

// MarkStale makes the next Render full, whatever full says: after the
// history was compressed or cleared the model no longer holds the context.
func (t *Tracker) MarkStale() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stale = true
}

// Render returns the editor context as text for the model. With full, or
// when the tracker is stale, it is the whole context (see renderFull);
// otherwise only the changes since the last Render, or "" when there are
// none. It returns "" while nothing is known (no folders, files or
// diagnostics), and stays stale then. ctx bounds the file read for the
// lines around the cursor, done without holding the lock.
func (t *Tracker) Render(ctx context.Context, full bool) string {
	t.awaitFirst(ctx)
	t.mu.Lock()
	if !full && !t.stale && t.version == t.lastVersion {
		t.mu.Unlock()
		return ""
	}
	cur, prev := t.cur, t.last
	full = full || t.stale
	if full && isEmpty(cur) {
		t.mu.Unlock()
		return ""
	}
	t.last, t.lastVersion, t.stale = cur, t.version, false
	t.mu.Unlock()
	if full {
		return renderFull(ctx, cur, t.readFile)
	}
	return renderDelta(prev, cur)
}

// Await makes the next Render wait, at most d, until first is closed: an
// editor connecting in the background pushes its context as soon as it is
// connected, and a prompt sent in that moment should not go without it.
func (t *Tracker) Await(first <-chan struct{}, d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.first, t.firstWait = first, d
}

// awaitFirst waits for the context Await announced, once, without the
// lock: until it arrives, firstWait passes or ctx ends.
func (t *Tracker) awaitFirst(ctx context.Context) {
	t.mu.Lock()
	first, d := t.first, t.firstWait
	t.first = nil
	t.mu.Unlock()
	if first == nil {
		return
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-first:
	case <-timer.C:
	case <-ctx.Done():
	}
}

// Snapshot returns a copy of the tracked context.
func (t *Tracker) Snapshot() Context {
	t.mu.Lock()
	c := t.cur
	t.mu.Unlock()
	return c.Normalize()
}

// TrustedFolders returns the paths of the workspace folders when the
// editor said the workspace is trusted, and nil otherwise (also while it
// has not said). The agent adds only these to a session's roots.
func (t *Tracker) TrustedFolders() []string {
	t.mu.Lock()
	c := t.cur
	t.mu.Unlock()
	if c.IsTrusted == nil || !*c.IsTrusted {
		return nil
	}
	var out []string
	for _, f := range c.WorkspaceFolders {
		if p, err := PathFromURI(f.URI); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// DiagnosticsFor returns the editor's current diagnostics for the file at
// path (most severe cap applied, ordered by position), or nil. The agent
// attaches them to the results of edits to that file.
func (t *Tracker) DiagnosticsFor(path string) []Diagnostic {
	uri := URIFromPath(path)
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, fd := range t.cur.Diagnostics {
		if fd.URI == uri {
			return slices.Clone(fd.Diagnostics)
		}
	}
	return nil
}

// isEmpty reports whether c knows nothing worth rendering.
func isEmpty(c Context) bool {
	return len(c.WorkspaceFolders) == 0 && len(c.OpenFiles) == 0 && len(c.Diagnostics) == 0
}
