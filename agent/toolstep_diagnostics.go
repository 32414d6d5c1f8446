package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"companion/ide"
	"companion/tools"
)

// Diagnoser reports the diagnostics of a file just edited (path, with its
// new text). ok is false when it has none to give: no server for the
// file, or none answered in time. The editor (when it sends diagnostics)
// and the language servers (tools/lsp) are Diagnosers; an edit's result
// is annotated the same way whichever answers.
type Diagnoser interface {
	Diagnose(ctx context.Context, path, text string) (list []ide.Diagnostic, ok bool)
}

// diagnosticsStep adds to an edit's result the errors then reported for
// the file (and warnings on the lines it changed) that were not reported
// after the previous edit: to what the model reads, and to what the user
// sees when that differs (an edit's diff), so a transcript shows what the
// model was told.
func (s *engine) diagnosticsStep(ctx context.Context, p *prepared, next toolNext) {
	next(ctx, p)
	if d := p.res.Diff; d != nil && !p.res.IsError {
		note := s.editDiagnostics(ctx, d)
		for i := range p.res.More {
			note += s.editDiagnostics(ctx, &p.res.More[i])
		}
		p.res.Text += note
		if p.res.Display != "" {
			p.res.Display += note
		}
	}
}

// editDiagnostics asks the editor, then the language servers, for the
// diagnostics of the edited file and renders the new ones; "" when none
// answers or nothing is new.
func (s *engine) editDiagnostics(ctx context.Context, d *tools.Diff) string {
	var editor Diagnoser = editorDiagnoser{s.ide}
	if s.opts.EditorDiagnostics != nil {
		editor = s.opts.EditorDiagnostics
	}
	sources := []struct {
		name string
		from Diagnoser
	}{{"The editor", editor}, {"The language server", s.opts.Diagnostics}}
	for _, src := range sources {
		if src.from == nil {
			continue
		}
		list, ok := src.from.Diagnose(ctx, d.Path, d.NewText)
		if !ok {
			continue
		}
		first, last := editedLines(d)
		return renderDiagnostics(src.name, d.Path, s.reported.fresh(d.Path, relevantDiagnostics(list, first, last)))
	}
	return ""
}

// renderDiagnostics is the note appended to an edit's result; "" for none.
func renderDiagnostics(who, path string, list []ide.Diagnostic) string {
	if len(list) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n%s reports these problems in %s after the edit; fix them if the edit caused them:\n", who, path)
	for _, d := range list {
		kind := "error"
		if d.Severity == ide.SeverityWarning {
			kind = "warning"
		}
		fmt.Fprintf(&b, "- line %d: %s: %s", d.Range.Start.Line+1, kind, d.Message)
		if d.Source != "" {
			fmt.Fprintf(&b, " (%s)", d.Source)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// relevantDiagnostics keeps the errors, and the warnings on the 0-based
// lines first to last, capped at maxEditDiagnostics.
func relevantDiagnostics(list []ide.Diagnostic, first, last int) []ide.Diagnostic {
	var out []ide.Diagnostic
	for _, d := range list {
		line := int(d.Range.Start.Line)
		warnHere := d.Severity == ide.SeverityWarning && line >= first && line <= last
		if (d.Severity == ide.SeverityError || warnHere) && len(out) < maxEditDiagnostics {
			out = append(out, d)
		}
	}
	return out
}

// maxEditDiagnostics bounds the problems reported after one edit.
const maxEditDiagnostics = 20

// editedLines returns the 0-based lines of the new text that the edit
// changed: from the first line that differs to the last, counted from
// the end.
func editedLines(d *tools.Diff) (first, last int) {
	var old []string
	if d.OldText != nil {
		old = strings.Split(*d.OldText, "\n")
	}
	cur := strings.Split(d.NewText, "\n")
	for first < len(old) && first < len(cur) && old[first] == cur[first] {
		first++
	}
	tailOld, tailCur := len(old)-1, len(cur)-1
	for tailOld >= first && tailCur >= first && old[tailOld] == cur[tailCur] {
		tailOld, tailCur = tailOld-1, tailCur-1
	}
	return first, max(tailCur, first)
}

// editorDiagnosticsWait is how long after an edit the agent waits for the
// editor's diagnostics of the file.
const editorDiagnosticsWait = 600 * time.Millisecond

// editorDiagnoser is the editor as a Diagnoser: the diagnostics it sent
// for the file a moment after the edit, when it sends diagnostics at all.
type editorDiagnoser struct{ t *ide.Tracker }

// Diagnose implements Diagnoser.
func (e editorDiagnoser) Diagnose(ctx context.Context, path, _ string) ([]ide.Diagnostic, bool) {
	if e.t.Snapshot().Diagnostics == nil {
		return nil, false
	}
	select {
	case <-ctx.Done():
		return nil, false
	case <-time.After(editorDiagnosticsWait):
	}
	return e.t.DiagnosticsFor(path), true
}
