package agent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"companion/ide"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

func TestDiagnosticsStep(t *testing.T) {
	tests := []struct {
		name     string
		editor   bool // the editor sends diagnostics
		res      *tools.Result
		wantNote bool
	}{
		{"an edit with errors", true, &tools.Result{Text: "done", Diff: &tools.Diff{Path: "a.txt"}}, true},
		{"no diagnostics from the editor", false, &tools.Result{Text: "done", Diff: &tools.Diff{Path: "a.txt"}}, false},
		{"a failed edit", true, &tools.Result{Text: "no", IsError: true, Diff: &tools.Diff{Path: "a.txt"}}, false},
		{"not an edit", true, &tools.Result{Text: "done"}, false},
		{"an edit shown as a diff", true, &tools.Result{Text: "done", Display: "**Edited**", Diff: &tools.Diff{Path: "a.txt"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSession(t, &agenttest.Model{})
			path := filepath.Join(s.Root(), "a.txt")
			if tt.res.Diff != nil {
				tt.res.Diff.Path = path
			}
			if tt.editor {
				s.UpdateIDEContext(ide.Context{Diagnostics: []ide.FileDiagnostics{{URI: ide.URIFromPath(path),
					Diagnostics: []ide.Diagnostic{{Severity: ide.SeverityError, Message: "undefined: foo"}}}}})
			}
			p := prepareCall(s, "echo", map[string]any{"text": "hi"})
			n := nextRecorder{res: tt.res}
			s.eng.diagnosticsStep(context.Background(), p, n.next)
			if got := strings.Contains(p.res.Text, "undefined: foo"); got != tt.wantNote {
				t.Errorf("result %q: note added = %v, want %v", p.res.Text, got, tt.wantNote)
			}
			// What the user sees (the transcript, the editor) says it too.
			if shown := strings.Contains(p.res.Display, "undefined: foo"); tt.res.Display != "" && shown != tt.wantNote {
				t.Errorf("display %q: note shown = %v, want %v", p.res.Display, shown, tt.wantNote)
			}
		})
	}
}

// fakeDiagnoser answers with list, once per call.
type fakeDiagnoser struct {
	list  []ide.Diagnostic
	calls int
}

func (f *fakeDiagnoser) Diagnose(context.Context, string, string) ([]ide.Diagnostic, bool) {
	f.calls++
	return f.list, true
}

// TestLanguageServerDiagnostics: without editor diagnostics the language
// server's are used; errors always, warnings only on the edited lines,
// and what was reported after the previous edit is not repeated.
func TestLanguageServerDiagnostics(t *testing.T) {
	old := "a\nb\nc\nd\n"
	diag := func(sev ide.DiagnosticSeverity, line uint32, msg string) ide.Diagnostic {
		return ide.Diagnostic{Severity: sev, Range: ide.Range{Start: ide.Position{Line: line}}, Message: msg, Source: "compiler"}
	}
	lsp := &fakeDiagnoser{list: []ide.Diagnostic{
		diag(ide.SeverityError, 0, "far error"),
		diag(ide.SeverityWarning, 3, "far warning"),
		diag(ide.SeverityWarning, 1, "near warning"),
		diag(ide.SeverityInformation, 1, "info"),
	}}
	s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) { o.Diagnostics = lsp })
	path := filepath.Join(s.Root(), "a.txt")
	edit := func() string {
		p := prepareCall(s, "echo", map[string]any{"text": "hi"})
		n := nextRecorder{res: &tools.Result{Text: "done", Diff: &tools.Diff{Path: path, OldText: &old, NewText: "a\nB\nc\nd\n"}}}
		s.eng.diagnosticsStep(context.Background(), p, n.next)
		return p.res.Text
	}
	first := edit()
	for _, want := range []string{"The language server reports", "line 1: error: far error (compiler)", "line 2: warning: near warning"} {
		if !strings.Contains(first, want) {
			t.Errorf("first result lacks %q:\n%s", want, first)
		}
	}
	for _, unwanted := range []string{"far warning", "info"} {
		if strings.Contains(first, unwanted) {
			t.Errorf("first result has %q:\n%s", unwanted, first)
		}
	}
	if second := edit(); second != "done" {
		t.Errorf("second result repeats the unchanged problems:\n%s", second)
	}
}

func TestEditedLines(t *testing.T) {
	str := func(s string) *string { return &s }
	tests := []struct {
		name        string
		old         *string
		new         string
		first, last int
	}{
		{"one line changed", str("a\nb\nc\n"), "a\nX\nc\n", 1, 1},
		{"lines added", str("a\nc\n"), "a\nb1\nb2\nc\n", 1, 2},
		{"new file", nil, "a\nb\n", 0, 2},
		{"a line removed", str("a\nb\nc\n"), "a\nc\n", 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, last := editedLines(&tools.Diff{OldText: tt.old, NewText: tt.new})
			if first != tt.first || last != tt.last {
				t.Errorf("editedLines = %d..%d, want %d..%d", first, last, tt.first, tt.last)
			}
		})
	}
}
