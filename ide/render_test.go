package ide

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// mainGo is the active file's buffer in the render tests: 60 numbered lines.
func mainGo() string {
	var b strings.Builder
	b.WriteString("package main\n")
	for i := 2; i <= 60; i++ {
		fmt.Fprintf(&b, "// line %d\n", i)
	}
	return b.String()
}

// baseUpdate is a whole context: two folders, three files (main.go active
// with a cursor and a selection), diagnostics on two files.
const baseUpdate = `{
  "sessionId": "s1",
  "workspaceFolders": [{"uri": "file:///home/u/proj", "name": "proj"}, {"uri": "file:///home/u/lib", "name": "shared lib"}],
  "openFiles": [
    {"uri": "file:///home/u/proj/util.go", "timestamp": 1000},
    {"uri": "file:///home/u/proj/main.go", "isActive": true, "timestamp": 3000,
     "cursor": {"line": 29, "character": 4},
     "selection": {"start": {"line": 29, "character": 0}, "end": {"line": 30, "character": 10}},
     "selectedText": "// line 30\n// line 31"},
    {"uri": "file:///home/u/proj/README.md", "timestamp": 2000}
  ],
  "diagnostics": [
    {"uri": "file:///home/u/proj/util.go", "diagnostics": [
      {"range": {"start": {"line": 9, "character": 1}, "end": {"line": 9, "character": 5}}, "severity": 2, "message": "unused variable x", "source": "vet"}
    ]},
    {"uri": "file:///home/u/proj/main.go", "diagnostics": [
      {"range": {"start": {"line": 40, "character": 0}, "end": {"line": 40, "character": 3}}, "severity": 1, "message": "undefined: foo\nsecond line", "source": "compiler", "code": "UndeclaredName"},
      {"range": {"start": {"line": 2, "character": 7}, "end": {"line": 2, "character": 9}}, "severity": 4, "message": "could be simpler", "code": 1005}
    ]}
  ],
  "isTrusted": true
}`

// newBaseTracker returns a Tracker holding baseUpdate, already rendered once.
func newBaseTracker(t *testing.T) *Tracker {
	t.Helper()
	tr := NewTracker(fakeBuffers(map[string]string{"/home/u/proj/main.go": mainGo()}))
	tr.Update(mustParse(t, baseUpdate))
	if tr.Render(context.Background(), true) == "" {
		t.Fatal("full render of the base context is empty")
	}
	return tr
}

func TestRenderFull(t *testing.T) {
	t.Parallel()
	tr := NewTracker(fakeBuffers(map[string]string{"/home/u/proj/main.go": mainGo()}))
	tr.Update(mustParse(t, baseUpdate))
	checkGolden(t, "full.golden", tr.Render(context.Background(), true))
}

func TestRenderDelta(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		update string
	}{
		{"delta_opened", `{"openFiles": [
			{"uri": "file:///home/u/proj/main.go", "isActive": true, "timestamp": 3000, "cursor": {"line": 29, "character": 4},
			 "selection": {"start": {"line": 29, "character": 0}, "end": {"line": 30, "character": 10}}, "selectedText": "// line 30\n// line 31"},
			{"uri": "file:///home/u/proj/new.go", "timestamp": 2500},
			{"uri": "file:///home/u/proj/README.md", "timestamp": 2000},
			{"uri": "file:///home/u/proj/util.go", "timestamp": 1000}]}`},
		{"delta_closed", `{"openFiles": [
			{"uri": "file:///home/u/proj/main.go", "isActive": true, "timestamp": 3000, "cursor": {"line": 29, "character": 4},
			 "selection": {"start": {"line": 29, "character": 0}, "end": {"line": 30, "character": 10}}, "selectedText": "// line 30\n// line 31"},
			{"uri": "file:///home/u/proj/util.go", "timestamp": 1000}]}`},
		{"delta_active", `{"openFiles": [
			{"uri": "file:///home/u/proj/main.go", "timestamp": 3000},
			{"uri": "file:///home/u/proj/util.go", "isActive": true, "timestamp": 4000, "cursor": {"line": 0, "character": 0},
			 "selection": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 7}}, "selectedText": "package"},
			{"uri": "file:///home/u/proj/README.md", "timestamp": 2000}]}`},
		{"delta_no_active", `{"openFiles": [
			{"uri": "file:///home/u/proj/main.go", "timestamp": 3000},
			{"uri": "file:///home/u/proj/util.go", "timestamp": 1000},
			{"uri": "file:///home/u/proj/README.md", "timestamp": 2000}]}`},
		{"delta_cursor", `{"openFiles": [
			{"uri": "file:///home/u/proj/main.go", "isActive": true, "timestamp": 3100, "cursor": {"line": 44, "character": 0},
			 "selection": {"start": {"line": 29, "character": 0}, "end": {"line": 30, "character": 10}}, "selectedText": "// line 30\n// line 31"},
			{"uri": "file:///home/u/proj/util.go", "timestamp": 1000},
			{"uri": "file:///home/u/proj/README.md", "timestamp": 2000}]}`},
		{"delta_selection", `{"openFiles": [
			{"uri": "file:///home/u/proj/main.go", "isActive": true, "timestamp": 3000, "cursor": {"line": 29, "character": 4},
			 "selection": {"start": {"line": 4, "character": 0}, "end": {"line": 4, "character": 10}}, "selectedText": "// line 5 with ` + "```" + ` fences"},
			{"uri": "file:///home/u/proj/util.go", "timestamp": 1000},
			{"uri": "file:///home/u/proj/README.md", "timestamp": 2000}]}`},
		{"delta_selection_cleared", `{"openFiles": [
			{"uri": "file:///home/u/proj/main.go", "isActive": true, "timestamp": 3000, "cursor": {"line": 29, "character": 4}},
			{"uri": "file:///home/u/proj/util.go", "timestamp": 1000},
			{"uri": "file:///home/u/proj/README.md", "timestamp": 2000}]}`},
		{"delta_diagnostics", `{"diagnostics": [
			{"uri": "file:///home/u/proj/main.go", "diagnostics": [
			  {"range": {"start": {"line": 40, "character": 0}, "end": {"line": 40, "character": 3}}, "severity": 1, "message": "undefined: bar", "source": "compiler"}]},
			{"uri": "file:///home/u/proj/new.go", "diagnostics": [
			  {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "severity": 3, "message": "package comment missing"}]}]}`},
		{"delta_diagnostics_cleared", `{"diagnostics": []}`},
		{"delta_folders", `{"workspaceFolders": [{"uri": "file:///home/u/proj", "name": "proj"}]}`},
		{"delta_trust", `{"isTrusted": false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := newBaseTracker(t)
			tr.Update(mustParse(t, tt.update))
			got := tr.Render(context.Background(), false)
			if got == "" {
				t.Fatal("delta render is empty")
			}
			checkGolden(t, tt.name+".golden", got)
			if again := tr.Render(context.Background(), false); again != "" {
				t.Errorf("second delta render = %q, want \"\"", again)
			}
		})
	}
}

func TestRenderNothingChanged(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		update string // "" means no update at all
	}{
		{"no update", ""},
		{"same context again", baseUpdate},
		{"empty update", `{}`},
		{"only session id", `{"sessionId": "s1"}`},
		{"timestamp only", `{"openFiles": [
			{"uri": "file:///home/u/proj/util.go", "timestamp": 1001},
			{"uri": "file:///home/u/proj/main.go", "isActive": true, "timestamp": 3001,
			 "cursor": {"line": 29, "character": 4},
			 "selection": {"start": {"line": 29, "character": 0}, "end": {"line": 30, "character": 10}},
			 "selectedText": "// line 30\n// line 31"},
			{"uri": "file:///home/u/proj/README.md", "timestamp": 2001}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr := newBaseTracker(t)
			if tt.update != "" {
				tr.Update(mustParse(t, tt.update))
			}
			if got := tr.Render(context.Background(), false); got != "" {
				t.Errorf("Render(false) = %q, want \"\"", got)
			}
		})
	}
}

func TestRenderSelectionTruncated(t *testing.T) {
	t.Parallel()
	// 3-byte runes, so the cut must step back to a rune boundary.
	sel := strings.Repeat("€", 7000)
	raw := fmt.Sprintf(`{"openFiles": [{"uri": "file:///p/a.txt", "isActive": true, "timestamp": 1, "selectedText": %q}]}`, sel)
	c := mustParse(t, raw)
	got := c.OpenFiles[0].SelectedText
	if len(got) > MaxSelectedBytes || !strings.HasSuffix(got, "\n"+SelectionTruncatedMarker) {
		t.Fatalf("selection of %d bytes, suffix %q", len(got), got[max(0, len(got)-30):])
	}
	tr := NewTracker(nil)
	tr.Update(c)
	checkGolden(t, "selection_truncated.golden", tr.Render(context.Background(), true))
}

func TestRenderFileCap(t *testing.T) {
	t.Parallel()
	var files []string
	for i := range 12 {
		files = append(files, fmt.Sprintf(`{"uri": "file:///p/f%02d.go", "timestamp": %d, "isActive": %t}`, i, 100+i, i == 11))
	}
	c := mustParse(t, `{"openFiles": [`+strings.Join(files, ",")+`]}`)
	if len(c.OpenFiles) != MaxOpenFiles {
		t.Fatalf("%d open files, want %d", len(c.OpenFiles), MaxOpenFiles)
	}
	tr := NewTracker(nil)
	tr.Update(c)
	checkGolden(t, "file_cap.golden", tr.Render(context.Background(), true))
}

func TestRenderDiagnosticCap(t *testing.T) {
	t.Parallel()
	// 250 diagnostics over two files: 50 errors, 100 warnings, 100 hints;
	// the cap keeps every error and warning and the first 50 hints.
	var a, b []string
	diag := func(line, sev int) string {
		return fmt.Sprintf(`{"range": {"start": {"line": %d, "character": 0}, "end": {"line": %d, "character": 1}}, "severity": %d, "message": "d%d"}`, line, line, sev, line)
	}
	for i := range 125 {
		sev := []int{4, 2, 1, 2, 4}[i%5]
		a = append(a, diag(i, sev))
		b = append(b, diag(i, []int{1, 4, 2, 4, 2}[i%5]))
	}
	raw := fmt.Sprintf(`{"diagnostics": [{"uri": "file:///p/a.go", "diagnostics": [%s]}, {"uri": "file:///p/b.go", "diagnostics": [%s]}]}`,
		strings.Join(a, ","), strings.Join(b, ","))
	c := mustParse(t, raw)
	counts := map[DiagnosticSeverity]int{}
	for _, fd := range c.Diagnostics {
		for _, d := range fd.Diagnostics {
			counts[d.Severity]++
		}
	}
	want := map[DiagnosticSeverity]int{SeverityError: 50, SeverityWarning: 100, SeverityHint: 50}
	if fmt.Sprint(counts) != fmt.Sprint(want) {
		t.Fatalf("kept %v, want %v", counts, want)
	}
	tr := NewTracker(nil)
	tr.Update(c)
	checkGolden(t, "diagnostic_cap.golden", tr.Render(context.Background(), true))
}
