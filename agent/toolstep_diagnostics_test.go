package agent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"companion/ide"
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSession(t, &fakeModel{})
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
			s.diagnosticsStep(context.Background(), p, n.next)
			if got := strings.Contains(p.res.Text, "undefined: foo"); got != tt.wantNote {
				t.Errorf("result %q: note added = %v, want %v", p.res.Text, got, tt.wantNote)
			}
		})
	}
}
