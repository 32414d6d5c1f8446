package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"companion/ide"
)

// diagnosticsStep adds to an edit's result the errors the editor then
// reports for the file.
func (s *Session) diagnosticsStep(ctx context.Context, p *prepared, next toolNext) {
	next(ctx, p)
	if d := p.res.Diff; d != nil && !p.res.IsError {
		if note := s.editDiagnostics(ctx, d.Path); note != "" {
			p.res.Text += note
		}
	}
}

// diagnosticsWait is how long after an edit the agent waits for the
// editor's diagnostics of the file before it reports the result.
const diagnosticsWait = 600 * time.Millisecond

// editDiagnostics returns the errors the editor reports for a file just
// edited, after giving it a moment to re-check; "" when there are none or
// the editor never sends diagnostics.
func (s *Session) editDiagnostics(ctx context.Context, path string) string {
	if s.ide.Snapshot().Diagnostics == nil {
		return ""
	}
	select {
	case <-ctx.Done():
		return ""
	case <-time.After(diagnosticsWait):
	}
	var b strings.Builder
	for _, d := range s.ide.DiagnosticsFor(path) {
		if d.Severity != ide.SeverityError {
			continue
		}
		fmt.Fprintf(&b, "- line %d: %s", d.Range.Start.Line+1, d.Message)
		if d.Source != "" {
			fmt.Fprintf(&b, " (%s)", d.Source)
		}
		b.WriteString("\n")
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n\nThe editor reports these errors in " + path + " after the edit; fix them if the edit caused them:\n" + b.String()
}
