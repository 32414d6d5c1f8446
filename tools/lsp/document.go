package lsp

import (
	"context"
	"time"

	"companion/lspclient"
)

// document is a file opened on a server for one use: diagnostics after an
// edit, or a navigation request. It is closed right after, so that the
// server reads the file from disk again (shell commands change files
// too); only one is open per instance at a time (see Pool.use).
type document struct {
	in      *instance
	uri     string
	version int32
	// before is the publication count when it was opened.
	before uint64
}

// openDocument opens path on in with text.
func (in *instance) openDocument(ctx context.Context, path, text string) (*document, error) {
	d := &document{in: in, uri: lspclient.FileURI(path)}
	d.version, d.before = in.nextVersion()
	err := in.client.DidOpen(ctx, lspclient.TextDocumentItem{URI: d.uri, LanguageID: languageID(path), Version: d.version, Text: text})
	return d, err
}

// close tells the server the document is closed.
func (d *document) close() {
	_ = d.in.client.DidClose(context.Background(), lspclient.DocumentID{URI: d.uri})
}

// settleWait is how long, after the first diagnostics of a new version,
// more publications are awaited (servers often send syntax errors first,
// then type errors).
const settleWait = 50 * time.Millisecond

// diagnostics waits, up to wait, for the diagnostics the server publishes
// for this version of the document, and returns the last ones; ok is
// false when none came in time.
func (d *document) diagnostics(ctx context.Context, wait time.Duration) (list []lspclient.Diagnostic, ok bool) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	var settle <-chan time.Time
	for {
		p, seen, changed := d.in.current(d.uri)
		if seen && d.fresh(p) {
			list, ok = p.list, true
			if settle == nil {
				timer := time.NewTimer(settleWait)
				defer timer.Stop()
				settle = timer.C
			}
		}
		select {
		case <-changed:
		case <-settle:
			return list, ok
		case <-deadline.C:
			return list, ok
		case <-ctx.Done():
			return list, ok
		case <-d.in.client.Done():
			return list, ok
		}
	}
}

// fresh reports whether p was published for this version: by its version
// when the server says, else by coming after the open.
func (d *document) fresh(p published) bool {
	if p.version != nil {
		return *p.version == d.version
	}
	return p.seq > d.before
}
