package store

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/testio"
)

// newTestStore returns a Store in a temporary state dir and its log.
func newTestStore(t testing.TB) (*Store, *testio.Buffer) {
	t.Helper()
	logs := &testio.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return Open(t.TempDir(), log), logs
}

// t0 is a fixed base time for records.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// testCwd returns an absolute cwd for name, valid on any system.
func testCwd(name string) string {
	return filepath.Join(string(filepath.Separator)+"work", name)
}

// create makes a session and fails the test on error.
func create(t testing.TB, s *Store, id, cwd string) *Writer {
	t.Helper()
	w, err := s.Create(Meta{ID: id, Cwd: cwd, CreatedAt: t0})
	if err != nil {
		t.Fatalf("Create(%s): %v", id, err)
	}
	return w
}

// rec returns a record of type typ at t0+sec seconds with data v.
func rec(typ string, sec int, v any) Record {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return Record{Type: typ, Time: t0.Add(time.Duration(sec) * time.Second), Data: b}
}

// mustAppend appends recs and fails the test on error.
func mustAppend(t testing.TB, w *Writer, recs ...Record) {
	t.Helper()
	if err := w.Append(recs...); err != nil {
		t.Fatalf("Append: %v", err)
	}
}

// rawLog writes a log file for id in cwd's project folder by hand.
func rawLog(t testing.TB, s *Store, id, cwd, body string) string {
	t.Helper()
	dir := filepath.Join(s.root, ProjectKey(cwd))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	head, err := encodeHeader(Meta{ID: id, Cwd: cwd, CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	path := logPath(dir, id)
	if err := os.WriteFile(path, append(head, body...), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// types lists the types of recs.
func types(recs []Record) string {
	var b strings.Builder
	for i, r := range recs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(r.Type)
	}
	return b.String()
}

// discard is a logger that drops everything.
func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }
