package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/tools"
)

// fakeSession is a session whose one server is the test binary as a
// fake language server (fakeserver_test.go) in mode, serving *.fk files
// in a fresh folder.
func fakeSession(t *testing.T, mode string) (*Session, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fake.mark"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	srv := Server{Name: "fake", Command: exe, Path: exe, Extensions: []string{".fk"}, RootMarkers: []string{"fake.mark"},
		Env: map[string]string{fakeModeEnv: mode}}
	// A server that answers neither way costs the whole wait: keep it short.
	s := NewPool(PoolOptions{}).Session(SessionOptions{Servers: []Server{srv}, Roots: roots, Wait: time.Second, ColdWait: 3 * time.Second})
	t.Cleanup(s.Close)
	return s, dir
}

// messages diagnoses name in dir with text and returns the messages.
func messages(t *testing.T, s *Session, dir, name, text string) []string {
	t.Helper()
	list, ok := s.Diagnose(context.Background(), filepath.Join(dir, name), text)
	if !ok {
		t.Fatalf("%s: no diagnostics", name)
	}
	out := []string{}
	for _, d := range list {
		out = append(out, d.Message)
	}
	return out
}

// TestPushDiagnostics: a server without diagnosticProvider is not
// pulled; what it publishes for the opened version is the answer.
func TestPushDiagnostics(t *testing.T) {
	t.Parallel()
	s, dir := fakeSession(t, "push")
	if got := messages(t, s, dir, "a.fk", "fine\nERR one\n"); strings.Join(got, "|") != "ERR one" {
		t.Errorf("diagnostics %q, want the pushed ERR one", got)
	}
	if st := s.pool.Status(); len(st) != 1 || st[0].Pulls {
		t.Errorf("status %+v: a server without diagnosticProvider is not pulled", st)
	}
}

// TestPullDiagnostics: a server that says diagnosticProvider is asked for
// them after each edit (it never publishes). The client names its last
// report, so the server answers "unchanged" and the kept list comes back
// (the same report, not a new one: the agent then repeats none of it);
// a report of a related document is kept and answers the next pull of
// that document; a pull the server cancels with retriggerRequest is made
// again, one answered "unchanged" against nothing held is made again
// without naming a report, and one that fails falls back to the
// published diagnostics.
func TestPullDiagnostics(t *testing.T) {
	t.Parallel()
	s, dir := fakeSession(t, "pull")
	if err := os.WriteFile(filepath.Join(dir, "b.fk"), []byte("ERR in b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name, file, text string
		want             []string
	}{
		{"first pull: a full report", "a.fk", "ERR one\n", []string{"ERR one [report 1]"}},
		{"same text: unchanged, the kept report", "a.fk", "ERR one\n", []string{"ERR one [report 1]"}},
		{"new text: a new report", "a.fk", "ERR two\nok\n", []string{"ERR two [report 2]"}},
		{"no problems: an empty report", "a.fk", "ok\n", []string{}},
		{"a report with a related document", "a.fk", "RELATED b.fk\nERR three\n", []string{"ERR three [report 4]"}},
		{"the related document: unchanged since then", "b.fk", "ERR in b\n", []string{"ERR in b [report 5]"}},
		{"a busy server asks to be asked again", "c.fk", "BUSY\nERR c\n", []string{"ERR c [report 6]"}},
		{"unchanged against no report held: asked again in full", "d.fk", "SAYUNCHANGED\nERR d\n", []string{"ERR d [report 7]"}},
		{"a failed pull: the published ones", "e.fk", "FAILPULL\nERR e\n", []string{"ERR e"}},
	}
	for _, st := range steps {
		if got := messages(t, s, dir, st.file, st.text); strings.Join(got, "|") != strings.Join(st.want, "|") {
			t.Errorf("%s: diagnostics %q, want %q", st.name, got, st.want)
		}
	}
	if st := s.pool.Status(); len(st) != 1 || !strings.Contains(st[0].String(), "diagnostics pulled") {
		t.Errorf("status %v does not say the diagnostics are pulled", st)
	}
}
