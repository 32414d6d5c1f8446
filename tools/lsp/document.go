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

// quietAfter is how long, after diagnostics for the document arrive,
// more are awaited before the last ones are taken: servers send syntax
// errors first, then type errors. A server that names the version it
// diagnosed says when it is done with that version, so a moment
// suffices; one that does not (typescript-language-server) may first
// publish an empty list and the errors later.
func quietAfter(p published) time.Duration {
	switch {
	case p.version != nil:
		return 50 * time.Millisecond
	case len(p.list) > 0:
		return 300 * time.Millisecond
	}
	return time.Second
}

// diagnostics waits, up to wait, for the diagnostics the server publishes
// for this version of the document, and returns the last ones once the
// server has been quiet for a moment (quietAfter); ok is false when none
// came in time.
func (d *document) diagnostics(ctx context.Context, wait time.Duration) (list []lspclient.Diagnostic, ok bool) {
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	quiet := time.NewTimer(time.Hour)
	defer quiet.Stop()
	var last uint64
	for {
		p, seen, changed := d.in.current(d.uri)
		if seen && d.fresh(p) && p.seq != last {
			last, list, ok = p.seq, p.list, true
			quiet.Reset(quietAfter(p))
		}
		select {
		case <-changed:
		case <-quiet.C:
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
