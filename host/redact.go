package host

import (
	"companion/agent"
	"companion/agent/store"
)

// redactedJournal is a session journal that passes its records through
// Options.Redact (secret values replaced) before they reach the file.
type redactedJournal struct {
	w      *store.Writer
	redact func([]byte) []byte
}

// journalFor returns the journal a session writes to: w, redacted when the
// host was given a Redact function.
func (h *Host) journalFor(w *store.Writer) agent.Journal {
	if h.opts.Redact == nil {
		return w
	}
	return redactedJournal{w: w, redact: h.opts.Redact}
}

// Append implements agent.Journal.
func (j redactedJournal) Append(recs ...store.Record) error {
	out := make([]store.Record, len(recs))
	for i, r := range recs {
		r.Data = j.redact(r.Data)
		out[i] = r
	}
	return j.w.Append(out...)
}

// Sync implements agent.Journal.
func (j redactedJournal) Sync() error { return j.w.Sync() }

// SetTitle implements agent.Journal.
func (j redactedJournal) SetTitle(title string) error {
	return j.w.SetTitle(string(j.redact([]byte(title))))
}

// Path is the session file (hooks get it as transcript_path).
func (j redactedJournal) Path() string { return j.w.Path() }
