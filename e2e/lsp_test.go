package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
	"companion/internal/testkit/testio"
)

// goModule is a one-package Go module whose main.go is fine.
func goModule() map[string]string {
	return map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"}
}

// unusedVar is main.go with a variable declared and not used.
const unusedVar = "package main\n\nfunc main() {\n\tx := 1\n}\n"

// goplsEnv is companion's environment for a test that needs gopls: the
// test's Go caches (so gopls loads the module warm), or a skip when gopls
// is not on PATH (make tools builds it; CI runs the tests through make).
func goplsEnv(t *testing.T) []string {
	t.Helper()
	testio.NeedGopls(t)
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	extra := []string{"GOCACHE=" + v[0], "GOMODCACHE=" + v[1], "GOPATH=" + v[2], "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod"}
	if cache, err := os.UserCacheDir(); err == nil {
		extra = append(extra, "XDG_CACHE_HOME="+cache) // gopls's own cache
	}
	return env(t, extra...)
}

// TestLSPDiagnosticsHeadless: `companion -p` with no editor at all: the
// edit that leaves an unused variable comes back to the model with
// gopls's "declared and not used" (the model's next turn answers only
// when its request holds it).
func TestLSPDiagnosticsHeadless(t *testing.T) {
	t.Parallel()
	e := goplsEnv(t)
	ws := workspace(t, goModule())
	sc := script(t, `{"turns":[{"chunks":[`+modelCall("write_file", map[string]any{"file_path": "main.go", "content": unusedVar})+`]},
		{"match":"declared and not used","chunks":[{"text":"Saw the error."}]}],"fallback":"error"}`)
	o := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "edit main.go", "--script", sc, "-y"}})
	if o.Code != 0 || !strings.Contains(o.Stdout, "Saw the error.") {
		t.Errorf("the model never read gopls's error:\n%s", o)
	}
}

// TestLSPDiagnosticsACP: over ACP with a client that sends no IDE
// context, the edit's result carries gopls's error once, shown to the
// editor too (a second edit leaving the same error does not repeat it),
// and /status lists gopls running with its memory. Both ways diagnostics
// come: gopls publishing them (push), and gopls asked for them (pull:
// its pullDiagnostics option; /status says so).
func TestLSPDiagnosticsACP(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, settings, status string }{
		{"push", "", "): running, "},
		{"pull", `{"lsp":{"gopls":{"initializationOptions":{"pullDiagnostics":true}}}}`, "diagnostics pulled"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lspDiagnosticsACP(t, tt.settings, tt.status)
		})
	}
}

// lspDiagnosticsACP is TestLSPDiagnosticsACP with gopls's settings;
// status is what /status must say besides that gopls runs.
func lspDiagnosticsACP(t *testing.T, settings, status string) {
	e := goplsEnv(t)
	ws := workspace(t, goModule())
	write := func(content string) string {
		return modelCall("write_file", map[string]any{"file_path": "main.go", "content": content})
	}
	ed := startAgent(t, agentOpts{binary: true, env: e, handler: acptest.NewFake().Handle, settings: settings, script: `{"turns":[
		{"match":"first edit","chunks":[` + write(unusedVar) + `]},
		{"match":"declared and not used","chunks":[{"text":"Saw the error."}]},
		{"match":"second edit","chunks":[` + write("// Package main.\n"+unusedVar) + `]},
		{"match":"second edit","chunks":[{"text":"Edited again."}]}],"fallback":"error"}`})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "first edit"))); got != "end_turn" || !strings.Contains(sklText(ed, id), "Saw the error.") {
		t.Fatalf("first edit: stop %q, text %q; tool updates:\n%s", got, sklText(ed, id), toolUpdates(ed, id))
	}
	once := strings.Count(toolUpdates(ed, id), "declared and not used")
	if once == 0 {
		t.Errorf("the editor was not shown gopls's error with the edit:\n%s", toolUpdates(ed, id))
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "second edit"))); got != "end_turn" {
		t.Fatalf("second edit: stop %q", got)
	}
	if again := strings.Count(toolUpdates(ed, id), "declared and not used"); again != once {
		t.Errorf("the unchanged error was reported again (%d mentions, then %d):\n%s", once, again, toolUpdates(ed, id))
	}
	ed.Wait(ed.Prompt(id, "/status"))
	for _, want := range []string{"Language servers:", "gopls (" + ws + "): running", " MB", status} {
		if !strings.Contains(sklText(ed, id), want) {
			t.Errorf("/status lacks %q:\n%s", want, sklText(ed, id))
		}
	}
}

// TestLSPNavigation: definition, references, hover and symbols across
// the two packages of a Go module, through gopls, headless.
func TestLSPNavigation(t *testing.T) {
	t.Parallel()
	e := goplsEnv(t)
	ws := workspace(t, map[string]string{"go.mod": "module example.com/two\n\ngo 1.22\n",
		"greet/greet.go": "package greet\n\n// Hello returns a greeting.\nfunc Hello(name string) string {\n\treturn \"hello \" + name\n}\n",
		"main.go":        "package main\n\nimport \"example.com/two/greet\"\n\nfunc main() {\n\tprintln(greet.Hello(\"a\"))\n\tprintln(greet.Hello(\"b\"))\n}\n"})
	at := func(tool, file string, line int) string {
		return modelCall(tool, map[string]any{"file_path": file, "line": line, "symbol": "Hello"})
	}
	sc := script(t, `{"turns":[
		{"chunks":[`+at("lsp_definition", "main.go", 6)+`]},
		{"match":"greet/greet.go:4: func Hello(name string) string {","chunks":[`+at("lsp_references", "greet/greet.go", 4)+`]},
		{"match":"main.go:7: println(greet.Hello(","chunks":[`+at("lsp_hover", "main.go", 7)+`]},
		{"match":"Hello returns a greeting","chunks":[`+modelCall("lsp_symbols", map[string]any{"file_path": "greet/greet.go"})+`]},
		{"match":"greet/greet.go:4: function Hello: func Hello","chunks":[{"text":"Found them all."}]}],"fallback":"error"}`)
	o := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "where is Hello", "--script", sc, "--output-format", "json"}})
	if o.Code != 0 || !strings.Contains(o.Stdout, "Found them all.") {
		t.Errorf("navigation did not answer as expected:\n%s", o)
	}
}

// TestLSPServerCrashes: a server that dies mid-session (its stdin is cut
// after 8000 bytes, inside the second prompt's first edit) costs the
// session nothing: edits still succeed, the turn ends normally, and
// /status tells it crashed.
func TestLSPServerCrashes(t *testing.T) {
	t.Parallel()
	e := goplsEnv(t)
	ws := workspace(t, goModule())
	big := "package main\n\n// " + strings.Repeat("padding ", 2000) + "\nfunc main() {}\n"
	write := func(content string) string {
		return modelCall("write_file", map[string]any{"file_path": "main.go", "content": content})
	}
	ed := startAgent(t, agentOpts{binary: true, env: e, handler: acptest.NewFake().Handle,
		settings: `{"lsp":{"gopls":{"command":["sh","-c","dd bs=1 count=8000 2>/dev/null | gopls"]}}}`, script: `{"turns":[
		{"match":"first edit","chunks":[` + write(unusedVar) + `]},
		{"match":"declared and not used","chunks":[{"text":"Saw the error."}]},
		{"match":"second edit","chunks":[` + write(big) + `]},
		{"match":"padding padding","chunks":[` + write("package main\n\nfunc main() {}\n") + `]},
		{"match":"second edit","chunks":[{"text":"Still working."}]}],"fallback":"error"}`})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "first edit"))); got != "end_turn" || !strings.Contains(sklText(ed, id), "Saw the error.") {
		t.Fatalf("before the crash: stop %q, text %q; tool updates:\n%s", got, sklText(ed, id), toolUpdates(ed, id))
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "second edit"))); got != "end_turn" || !strings.Contains(sklText(ed, id), "Still working.") {
		t.Fatalf("after the crash: stop %q, text %q; tool updates:\n%s", got, sklText(ed, id), toolUpdates(ed, id))
	}
	if got := readFile(t, ws+"/main.go"); got != "package main\n\nfunc main() {}\n" {
		t.Errorf("main.go = %q, want the last edit", got)
	}
	ed.Wait(ed.Prompt(id, "/status"))
	if st := sklText(ed, id); !strings.Contains(st, "gopls (") || !(strings.Contains(st, "crashed") || strings.Contains(st, "restarts")) {
		t.Errorf("/status does not tell the crash:\n%s", st)
	}
}

// TestLSPServerMissing: a configured server that is not installed costs
// an edit nothing, and `companion config show` says, in one sentence,
// how to install it.
func TestLSPServerMissing(t *testing.T) {
	t.Parallel()
	ws := workspace(t, goModule())
	e := withSettings(t, env(t), `{"lsp":{"gopls":{"command":"gopls-not-installed"}}}`)
	sc := script(t, `{"turns":[{"chunks":[`+modelCall("write_file", map[string]any{"file_path": "main.go", "content": unusedVar})+`]},
		{"match":"functionResponse","chunks":[{"text":"Edited."}]}],"fallback":"error"}`)
	o := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "edit", "--script", sc, "-y"}})
	if o.Code != 0 || !strings.Contains(o.Stdout, "Edited.") {
		t.Errorf("edit with a missing server:\n%s", o)
	}
	show := exec.Command(companionBin(t), "config", "show", "--dir", ws)
	show.Env = e
	out, err := show.CombinedOutput()
	want := "gopls is not installed (gopls-not-installed is not on PATH); install it with: go install golang.org/x/tools/gopls@latest"
	if err != nil || !strings.Contains(string(out), want) {
		t.Errorf("config show (%v) lacks %q:\n%s", err, want, out)
	}
}

// TestLSPRename: a rename across the two packages of a Go module is one
// edit: the editor is asked once with both files' diffs, both files
// change, and one /undo takes both back.
func TestLSPRename(t *testing.T) {
	t.Parallel()
	e := goplsEnv(t)
	greet := "package greet\n\n// Hello returns a greeting.\nfunc Hello(name string) string {\n\treturn \"hello \" + name\n}\n"
	main := "package main\n\nimport \"example.com/two/greet\"\n\nfunc main() {\n\tprintln(greet.Hello(\"a\"))\n}\n"
	ws := workspace(t, map[string]string{"go.mod": "module example.com/two\n\ngo 1.22\n", "greet/greet.go": greet, "main.go": main})
	fake := acptest.NewFake()
	rename := modelCall("lsp_rename", map[string]any{"file_path": "main.go", "line": 6, "symbol": "Hello", "new_name": "Greet"})
	ed := startAgent(t, agentOpts{binary: true, env: e, handler: fake.Handle, script: `{"turns":[
		{"match":"rename it","chunks":[` + rename + `]},
		{"match":"Renamed Hello to Greet in 2 files","chunks":[{"text":"Renamed."}]}],"fallback":"error"}`})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "rename it"))); got != "end_turn" || !strings.Contains(sklText(ed, id), "Renamed.") {
		t.Fatalf("stop %q, text %q; tool updates:\n%s", got, sklText(ed, id), toolUpdates(ed, id))
	}
	if len(fake.Permissions) != 1 || len(fake.Permissions[0].ToolCall.Content) != 2 {
		t.Errorf("asked %d times; want once with two diffs: %+v", len(fake.Permissions), fake.Permissions)
	}
	if g, m := readFile(t, ws+"/greet/greet.go"), readFile(t, ws+"/main.go"); !strings.Contains(g, "func Greet(") || !strings.Contains(m, "greet.Greet(\"a\")") {
		t.Errorf("after the rename:\n%s\n%s", g, m)
	}
	ed.Wait(ed.Prompt(id, "/undo"))
	if g, m := readFile(t, ws+"/greet/greet.go"), readFile(t, ws+"/main.go"); g != greet || m != main {
		t.Errorf("one /undo did not take both files back:\n%s\n%s", g, m)
	}
}
