package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"companion/internal/testkit/acptest"
)

// languageEditor is a fake editor with language features of its own: it
// answers _companion/lsp with answer (by LSP method) and records the
// requests; everything else goes to the fake's files and permissions.
type languageEditor struct {
	*acptest.Fake
	answer func(method string) any

	mu       sync.Mutex
	requests []map[string]any
}

// Handle is the editor's HandlerFunc.
func (l *languageEditor) Handle(method string, params json.RawMessage) (any, *acptest.RPCError) {
	if method != "_companion/lsp" {
		return l.Fake.Handle(method, params)
	}
	var p map[string]any
	json.Unmarshal(params, &p)
	l.mu.Lock()
	l.requests = append(l.requests, p)
	l.mu.Unlock()
	m, _ := p["method"].(string)
	return l.answer(m), nil
}

// methods lists the LSP methods the agent asked the editor, in order.
func (l *languageEditor) methods() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.requests {
		out = append(out, r["method"].(string))
	}
	return out
}

// markerServer is settings whose gopls, when started, leaves the file
// marker and exits: a side effect that tells whether companion started
// a server at all.
func markerServer(marker string) string {
	b, _ := json.Marshal([]string{"sh", "-c", "touch '" + marker + "'; exit 1"})
	return `{"lsp":{"gopls":{"command":` + string(b) + `}}}`
}

// twoPackages is a Go module whose main.go calls greet.Hello.
func twoPackages() map[string]string {
	return map[string]string{"go.mod": "module example.com/two\n\ngo 1.22\n",
		"greet/greet.go": "package greet\n\n// Hello returns a greeting.\nfunc Hello(name string) string {\n\treturn \"hello \" + name\n}\n",
		"main.go":        "package main\n\nimport \"example.com/two/greet\"\n\nfunc main() {\n\tprintln(greet.Hello(\"a\"))\n}\n"}
}

// TestLSPEditorAnswers: a client that offers _companion/lsp and has
// language features for the file answers the navigation tool and the
// diagnostics after an edit; no language server is started (the marker
// server never runs), and the session's stats list the editor and the
// server that applies.
func TestLSPEditorAnswers(t *testing.T) {
	t.Parallel()
	ws := workspace(t, twoPackages())
	marker := filepath.Join(t.TempDir(), "server-started")
	greet := filepath.Join(ws, "greet", "greet.go")
	ed := &languageEditor{Fake: acptest.NewFake(), answer: func(method string) any {
		switch method {
		case "textDocument/definition":
			return map[string]any{"available": true, "result": []any{map[string]any{"uri": "file://" + greet,
				"range": map[string]any{"start": map[string]any{"line": 3, "character": 5}, "end": map[string]any{"line": 3, "character": 10}}}}}
		case "textDocument/diagnostic":
			return map[string]any{"available": true, "result": map[string]any{"kind": "full", "items": []any{map[string]any{
				"range":    map[string]any{"start": map[string]any{"line": 3, "character": 1}, "end": map[string]any{"line": 3, "character": 2}},
				"severity": 1, "source": "compiler", "message": "declared and not used: x (said the editor)"}}}}
		}
		return map[string]any{"available": false}
	}}
	def := modelCall("lsp_definition", map[string]any{"file_path": "main.go", "line": 6, "symbol": "Hello"})
	write := modelCall("write_file", map[string]any{"file_path": "main.go", "content": unusedVar})
	a := startAgent(t, agentOpts{handler: ed.Handle, settings: markerServer(marker), script: `{"turns":[
		{"match":"where is Hello","chunks":[` + def + `]},
		{"match":"greet/greet.go:4: func Hello(name string) string {","chunks":[` + write + `]},
		{"match":"The editor reports these problems in","chunks":[{"text":"Saw the editor's error."}]}],"fallback":"error"}`})
	a.Initialize(map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true},
		"_meta": map[string]any{"companion": map[string]any{"lsp": true}}})
	id := a.NewSession(ws)
	if got := a.StopReason(a.Wait(a.Prompt(id, "where is Hello"))); got != "end_turn" || !strings.Contains(sklText(a, id), "Saw the editor's error.") {
		t.Fatalf("stop %q, text %q; tool updates:\n%s", got, sklText(a, id), toolUpdates(a, id))
	}
	if got := ed.methods(); strings.Join(got, ",") != "textDocument/definition,textDocument/diagnostic" {
		t.Errorf("the editor was asked %v; want the definition, then the edit's diagnostics", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a language server was started although the editor answered")
	}
	m := a.Call("_companion/session/stats", map[string]any{"sessionId": id})
	var st struct {
		LanguageServers []string `json:"languageServers"`
	}
	if err := json.Unmarshal(m.Result, &st); err != nil || len(st.LanguageServers) != 2 ||
		!strings.HasPrefix(st.LanguageServers[0], "the editor: its own language features") ||
		!strings.Contains(st.LanguageServers[1], "gopls: not started") {
		t.Errorf("stats' languageServers (%v): %q", err, st.LanguageServers)
	}
}

// TestLSPEditorFallsBack: when the editor has no language features for
// the file (available false), the tool asks the file's server: the
// marker server starts.
func TestLSPEditorFallsBack(t *testing.T) {
	t.Parallel()
	ws := workspace(t, twoPackages())
	marker := filepath.Join(t.TempDir(), "server-started")
	ed := &languageEditor{Fake: acptest.NewFake(), answer: func(string) any { return map[string]any{"available": false} }}
	def := modelCall("lsp_definition", map[string]any{"file_path": "main.go", "line": 6, "symbol": "Hello"})
	a := startAgent(t, agentOpts{handler: ed.Handle, settings: markerServer(marker), script: `{"turns":[
		{"match":"where is Hello","chunks":[` + def + `]},
		{"match":"gopls","chunks":[{"text":"The server is down."}]}],"fallback":"error"}`})
	a.Initialize(map[string]any{"_meta": map[string]any{"companion": map[string]any{"lsp": true}}})
	id := a.NewSession(ws)
	if got := a.StopReason(a.Wait(a.Prompt(id, "where is Hello"))); got != "end_turn" || !strings.Contains(sklText(a, id), "The server is down.") {
		t.Fatalf("stop %q, text %q; tool updates:\n%s", got, sklText(a, id), toolUpdates(a, id))
	}
	if got := ed.methods(); len(got) != 1 || got[0] != "textDocument/definition" {
		t.Errorf("the editor was asked %v; want the definition once", got)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the server was not started after the editor had no language features: %v", err)
	}
}

// TestLSPEditorRename: the editor's rename provider answers lsp_rename
// with a WorkspaceEdit over two files; companion applies it as one edit
// (one permission question with both diffs), the editor is asked for
// both files' diagnostics after it, and no server starts.
func TestLSPEditorRename(t *testing.T) {
	t.Parallel()
	ws := workspace(t, twoPackages())
	marker := filepath.Join(t.TempDir(), "server-started")
	edit := func(line, from, to int) map[string]any {
		return map[string]any{"newText": "Greet", "range": map[string]any{
			"start": map[string]any{"line": line, "character": from}, "end": map[string]any{"line": line, "character": to}}}
	}
	ed := &languageEditor{Fake: acptest.NewFake(), answer: func(method string) any {
		switch method {
		case "textDocument/diagnostic": // after the edit: nothing wrong
			return map[string]any{"available": true, "result": map[string]any{"kind": "full", "items": []any{}}}
		case "textDocument/rename":
		default:
			return map[string]any{"available": false}
		}
		return map[string]any{"available": true, "result": map[string]any{"changes": map[string]any{
			"file://" + filepath.Join(ws, "greet", "greet.go"): []any{edit(3, 5, 10)},
			"file://" + filepath.Join(ws, "main.go"):           []any{edit(5, 15, 20)}}}}
	}}
	rename := modelCall("lsp_rename", map[string]any{"file_path": "main.go", "line": 6, "symbol": "Hello", "new_name": "Greet"})
	a := startAgent(t, agentOpts{handler: ed.Handle, settings: markerServer(marker), script: `{"turns":[
		{"match":"rename it","chunks":[` + rename + `]},
		{"match":"Renamed Hello to Greet in 2 files","chunks":[{"text":"Renamed."}]}],"fallback":"error"}`})
	a.Initialize(map[string]any{"_meta": map[string]any{"companion": map[string]any{"lsp": true}}})
	id := a.NewSession(ws)
	if got := a.StopReason(a.Wait(a.Prompt(id, "rename it"))); got != "end_turn" || !strings.Contains(sklText(a, id), "Renamed.") {
		t.Fatalf("stop %q, text %q; tool updates:\n%s", got, sklText(a, id), toolUpdates(a, id))
	}
	if len(ed.Permissions) != 1 || len(ed.Permissions[0].ToolCall.Content) != 2 {
		t.Errorf("asked %d times; want once with two diffs", len(ed.Permissions))
	}
	if g, m := readFile(t, ws+"/greet/greet.go"), readFile(t, ws+"/main.go"); !strings.Contains(g, "func Greet(") || !strings.Contains(m, "greet.Greet(\"a\")") {
		t.Errorf("after the rename:\n%s\n%s", g, m)
	}
	if got := strings.Join(ed.methods(), ","); got != "textDocument/rename,textDocument/diagnostic,textDocument/diagnostic" {
		t.Errorf("the editor was asked %s", got)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a language server was started although the editor renamed")
	}
}
