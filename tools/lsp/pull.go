package lsp

import (
	"context"
	"errors"
	"time"

	"companion/lspclient"
)

// pulledReport is the last pulled report kept for a document: the result
// ID the next pull sends, and the diagnostics an "unchanged" answer
// repeats.
type pulledReport struct {
	resultID string
	list     []lspclient.Diagnostic
}

// pullAgain is the pause before asking again a server that cancelled a
// pull and asked to be asked again.
const pullAgain = 50 * time.Millisecond

// errUnknownUnchanged is a server's "unchanged" for a report companion
// does not hold.
var errUnknownUnchanged = errors.New("the server said unchanged against a report companion does not hold")

// pull asks the server for the document's diagnostics until deadline,
// naming the last report kept so the server may answer "unchanged". It
// asks again when the server says so, and once without a previous report
// when it says unchanged against one that is not held.
func (d *document) pull(ctx context.Context, deadline time.Time) ([]lspclient.Diagnostic, error) {
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	forget := false
	for {
		prev := ""
		if !forget {
			prev = d.in.lastPull(d.uri).resultID
		}
		rep, err := d.in.client.PullDiagnostics(ctx, d.uri, prev)
		if errors.Is(err, lspclient.ErrRetrigger) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(pullAgain):
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		list, err := d.in.keepPull(d.uri, rep)
		if errors.Is(err, errUnknownUnchanged) && !forget {
			forget = true
			continue
		}
		return list, err
	}
}

// lastPull is the report kept for uri; zero when none.
func (in *instance) lastPull(uri string) pulledReport {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.pulled[uri]
}

// keepPull keeps a pull's answer, the related documents' reports
// included, and returns uri's diagnostics: a full report's items, or for
// an unchanged one those of the report it repeats.
func (in *instance) keepPull(uri string, rep *lspclient.DocumentDiagnosticReport) ([]lspclient.Diagnostic, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	for related, r := range rep.RelatedDocuments {
		if related != uri {
			in.keepReport(related, r)
		}
	}
	list, ok := in.keepReport(uri, rep.DiagnosticReport)
	if !ok {
		return nil, errUnknownUnchanged
	}
	return list, nil
}

// keepReport keeps one document's report and returns its diagnostics;
// ok is false for an unchanged report whose predecessor is not held (it
// is then forgotten, so the next pull asks for a full one). in.mu is held.
func (in *instance) keepReport(uri string, r lspclient.DiagnosticReport) (list []lspclient.Diagnostic, ok bool) {
	if r.Kind != lspclient.ReportUnchanged {
		in.pulled[uri] = pulledReport{resultID: r.ResultID, list: r.Items}
		return r.Items, true
	}
	prev, held := in.pulled[uri]
	if !held || prev.resultID == "" {
		delete(in.pulled, uri)
		return nil, false
	}
	// An unchanged report may carry the ID the next pull is to send.
	if r.ResultID != "" {
		prev.resultID = r.ResultID
	}
	in.pulled[uri] = prev
	return prev.list, true
}
