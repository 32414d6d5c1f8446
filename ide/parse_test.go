package ide

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseUpdateErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		raw  string
	}{
		{"empty", ``},
		{"null", `null`},
		{"array", `[]`},
		{"string", `"x"`},
		{"bad json", `{"openFiles": [`},
		{"trailing garbage", `{} {}`},
		{"sessionId number", `{"sessionId": 7}`},
		{"openFiles object", `{"openFiles": {}}`},
		{"uri number", `{"openFiles": [{"uri": 1, "timestamp": 1}]}`},
		{"timestamp string", `{"openFiles": [{"uri": "file:///a", "timestamp": "now"}]}`},
		{"timestamp fraction", `{"openFiles": [{"uri": "file:///a", "timestamp": 1.5}]}`},
		{"isActive string", `{"openFiles": [{"uri": "file:///a", "timestamp": 1, "isActive": "yes"}]}`},
		{"negative line", `{"openFiles": [{"uri": "file:///a", "timestamp": 1, "cursor": {"line": -1, "character": 0}}]}`},
		{"cursor array", `{"openFiles": [{"uri": "file:///a", "timestamp": 1, "cursor": [1, 2]}]}`},
		{"selection text number", `{"openFiles": [{"uri": "file:///a", "timestamp": 1, "selectedText": 3}]}`},
		{"missing uri", `{"openFiles": [{"timestamp": 1}]}`},
		{"folder missing uri", `{"workspaceFolders": [{"name": "x"}]}`},
		{"folders string", `{"workspaceFolders": "file:///a"}`},
		{"isTrusted string", `{"isTrusted": "true"}`},
		{"diagnostics missing uri", `{"diagnostics": [{"diagnostics": []}]}`},
		{"severity string", `{"diagnostics": [{"uri": "file:///a", "diagnostics": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "severity": "error", "message": "m"}]}]}`},
		{"code float", `{"diagnostics": [{"uri": "file:///a", "diagnostics": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "code": 1.5, "message": "m"}]}]}`},
		{"code object", `{"diagnostics": [{"uri": "file:///a", "diagnostics": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "code": {}, "message": "m"}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, _, err := ParseUpdate(json.RawMessage(tt.raw))
			if !errors.Is(err, ErrInvalidUpdate) {
				t.Errorf("ParseUpdate(%s) error = %v, want ErrInvalidUpdate", tt.raw, err)
			}
		})
	}
}

func TestParseUpdate(t *testing.T) {
	t.Parallel()
	yes := true
	tests := []struct {
		name    string
		raw     string
		session string
		want    Context
	}{
		{"absent fields stay nil", `{"sessionId": "s9"}`, "s9", Context{}},
		{"null is absent", `{"openFiles": null, "diagnostics": null, "isTrusted": null}`, "", Context{}},
		{"empty lists stay empty", `{"openFiles": [], "diagnostics": [], "workspaceFolders": []}`, "",
			Context{OpenFiles: []OpenFile{}, Diagnostics: []FileDiagnostics{}, WorkspaceFolders: []WorkspaceFolder{}}},
		{"folder named after path, uri canonical", `{"workspaceFolders": [{"uri": "file://localhost/home/u/my%20proj/"}], "isTrusted": true}`, "",
			Context{WorkspaceFolders: []WorkspaceFolder{{URI: "file:///home/u/my%20proj", Name: "my proj"}}, IsTrusted: &yes}},
		{"non-file uris dropped", `{"openFiles": [{"uri": "untitled:Untitled-1", "timestamp": 5, "isActive": true}, {"uri": "file:///a.go", "timestamp": 1}]}`, "",
			Context{OpenFiles: []OpenFile{{URI: "file:///a.go", Timestamp: 1}}}},
		{"only the newest is active, others lose cursor", `{"openFiles": [
			{"uri": "file:///a.go", "timestamp": 1, "isActive": true, "cursor": {"line": 1, "character": 2}, "selectedText": "x"},
			{"uri": "file:///b.go", "timestamp": 2, "isActive": true, "cursor": {"line": 3, "character": 4}}]}`, "",
			Context{OpenFiles: []OpenFile{
				{URI: "file:///b.go", Timestamp: 2, IsActive: true, Cursor: &Position{Line: 3, Character: 4}},
				{URI: "file:///a.go", Timestamp: 1}}}},
		{"newest not active means none active", `{"openFiles": [
			{"uri": "file:///a.go", "timestamp": 1, "isActive": true, "cursor": {"line": 1, "character": 2}},
			{"uri": "file:///b.go", "timestamp": 2}]}`, "",
			Context{OpenFiles: []OpenFile{{URI: "file:///b.go", Timestamp: 2}, {URI: "file:///a.go", Timestamp: 1}}}},
		{"duplicate files keep the newest", `{"openFiles": [
			{"uri": "file:///a.go", "timestamp": 1}, {"uri": "file:///x/../a.go", "timestamp": 9}]}`, "",
			Context{OpenFiles: []OpenFile{{URI: "file:///a.go", Timestamp: 9}}}},
		{"diagnostics merged, sorted, emptied files dropped", `{"diagnostics": [
			{"uri": "file:///a.go", "diagnostics": [{"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}}, "message": "late", "code": 42}]},
			{"uri": "file:///b.go", "diagnostics": []},
			{"uri": "file:///a.go", "diagnostics": [{"range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}}, "message": "early"}]}]}`, "",
			Context{Diagnostics: []FileDiagnostics{{URI: "file:///a.go", Diagnostics: []Diagnostic{
				{Range: Range{Start: Position{Line: 1}, End: Position{Line: 1}}, Message: "early"},
				{Range: Range{Start: Position{Line: 5}, End: Position{Line: 5}}, Message: "late", Code: "42"}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			session, got, err := ParseUpdate(json.RawMessage(tt.raw))
			if err != nil {
				t.Fatal(err)
			}
			if session != tt.session {
				t.Errorf("session = %q, want %q", session, tt.session)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("context:\n got %s\nwant %s", mustJSON(t, got), mustJSON(t, tt.want))
			}
		})
	}
}

func TestFromCompanionSpec(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("testdata", "companion_update.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromCompanionSpec(raw)
	if err != nil {
		t.Fatal(err)
	}
	tr := NewTracker(fakeBuffers(map[string]string{"/home/u/proj/src/app.ts": "const a = 1;\nconst b = 2;\nexport { a, b };\n"}))
	tr.Update(Context{WorkspaceFolders: []WorkspaceFolder{FolderFromPath("/home/u/proj")}})
	tr.Update(c)
	checkGolden(t, "companion_update.golden", mustJSON(t, c)+"\n"+tr.Render(context.Background(), true))
	if got := tr.TrustedFolders(); !reflect.DeepEqual(got, []string{"/home/u/proj"}) {
		t.Errorf("TrustedFolders = %q", got)
	}
}

func TestFromCompanionSpecShapes(t *testing.T) {
	t.Parallel()
	no := false
	tests := []struct {
		name    string
		raw     string
		want    Context
		wantErr bool
	}{
		{"no workspaceState", `{}`, Context{}, false},
		{"top-level isTrusted", `{"isTrusted": false, "workspaceState": {"openFiles": []}}`, Context{OpenFiles: []OpenFile{}, IsTrusted: &no}, false},
		{"relative path dropped, cursor 0 clamped", `{"workspaceState": {"openFiles": [
			{"path": "rel.go", "timestamp": 2}, {"path": "C:\\src\\a.go", "timestamp": 1, "isActive": true, "cursor": {"line": 0, "character": 0}}]}}`,
			Context{OpenFiles: []OpenFile{{URI: "file:///C:/src/a.go", Timestamp: 1, IsActive: true, Cursor: &Position{}}}}, false},
		{"missing path", `{"workspaceState": {"openFiles": [{"timestamp": 1}]}}`, Context{}, true},
		{"wrong type", `{"workspaceState": {"openFiles": [{"path": "/a", "timestamp": "x"}]}}`, Context{}, true},
		{"not an object", `[1]`, Context{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := FromCompanionSpec(json.RawMessage(tt.raw))
			if tt.wantErr {
				if !errors.Is(err, ErrInvalidUpdate) {
					t.Fatalf("error = %v, want ErrInvalidUpdate", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %s\nwant %s", mustJSON(t, got), mustJSON(t, tt.want))
			}
		})
	}
}

// mustJSON encodes v indented or fails the test.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
