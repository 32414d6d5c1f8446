package agent

import (
	"sync"

	"companion/ide"
)

// reportedDiagnostics remembers, per file, the problems last reported
// after an edit, so that the next edit reports only new ones.
type reportedDiagnostics struct {
	// mu guards last.
	mu   sync.Mutex
	last map[string]map[diagnosticKey]bool
}

// diagnosticKey identifies a problem across edits that move its line.
type diagnosticKey struct {
	severity ide.DiagnosticSeverity
	source   string
	message  string
}

// fresh returns the problems of list not reported for path last time,
// and remembers list as the last report.
func (r *reportedDiagnostics) fresh(path string, list []ide.Diagnostic) []ide.Diagnostic {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = map[string]map[diagnosticKey]bool{}
	}
	prev, now := r.last[path], make(map[diagnosticKey]bool, len(list))
	var out []ide.Diagnostic
	for _, d := range list {
		k := diagnosticKey{d.Severity, d.Source, d.Message}
		now[k] = true
		if !prev[k] {
			out = append(out, d)
		}
	}
	r.last[path] = now
	return out
}
