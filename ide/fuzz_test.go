package ide

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzParseUpdate checks that ParseUpdate never panics, that what it
// accepts is within the limits, survives an encode/decode round trip and
// renders without panicking.
func FuzzParseUpdate(f *testing.F) {
	f.Add([]byte(baseUpdate))
	f.Add([]byte(`{"openFiles": [{"uri": "file:///a", "timestamp": 1, "isActive": true, "selectedText": "x"}]}`))
	f.Add([]byte(`{"diagnostics": [{"uri": "file:///a", "diagnostics": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "code": 3, "message": "m"}]}]}`))
	f.Add([]byte(`{"workspaceFolders": [], "isTrusted": null}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, c, err := ParseUpdate(raw)
		if err != nil {
			return
		}
		checkLimits(t, c)
		enc, err := json.Marshal(c)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		_, again, err := ParseUpdate(enc)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", enc, err)
		}
		if !reflect.DeepEqual(again, c) {
			t.Fatalf("round trip changed the context:\n%s\n%s", mustJSON(t, c), mustJSON(t, again))
		}
		if !reflect.DeepEqual(c.Normalize(), c) {
			t.Fatal("Normalize is not idempotent")
		}
		// Rendering whatever was accepted must not panic, in full or as a
		// delta from the base context.
		tr := NewTracker(func(context.Context, string) (string, error) { return "a\n\nb", nil })
		tr.Update(mustParse(t, baseUpdate))
		tr.Render(context.Background(), true)
		tr.Update(c)
		tr.Render(context.Background(), false)
		tr.Render(context.Background(), true)
	})
}

// checkLimits fails unless c is within the package's limits.
func checkLimits(t *testing.T, c Context) {
	t.Helper()
	if len(c.OpenFiles) > MaxOpenFiles {
		t.Fatalf("%d open files", len(c.OpenFiles))
	}
	for i, f := range c.OpenFiles {
		if f.IsActive && i > 0 {
			t.Fatalf("file %d is active", i)
		}
		if len(f.SelectedText) > MaxSelectedBytes || !utf8.ValidString(f.SelectedText) {
			t.Fatalf("selected text of %d bytes, valid UTF-8 %t", len(f.SelectedText), utf8.ValidString(f.SelectedText))
		}
	}
	n := 0
	for _, fd := range c.Diagnostics {
		n += len(fd.Diagnostics)
	}
	if n > MaxDiagnostics {
		t.Fatalf("%d diagnostics", n)
	}
}
