package store

import (
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// session makes a closed session whose last record is at t0+sec seconds.
func session(t testing.TB, s *Store, id, cwd string, sec int) {
	t.Helper()
	w := create(t, s, id, cwd)
	mustAppend(t, w, rec("user", sec, "hi"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// ids lists the ids of infos.
func ids(infos []Info) string {
	var b []string
	for _, i := range infos {
		b = append(b, i.ID)
	}
	return strings.Join(b, ",")
}

func TestListPagingWhileCreating(t *testing.T) {
	s, _ := newTestStore(t)
	for i := range 7 {
		cwd := testCwd(fmt.Sprintf("p%d", i%2))
		session(t, s, fmt.Sprintf("old%d", i), cwd, 10+i)
	}
	session(t, s, "tie-a", testCwd("p0"), 13) // same updatedAt as old3: ordered by id
	var pages []string
	cursor := ""
	for n := 0; ; n++ {
		infos, next, err := s.List(ListOptions{Cursor: cursor, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, ids(infos))
		// Newer sessions arrive between pages; they sort before the cursor.
		session(t, s, fmt.Sprintf("new%d", n), testCwd("p1"), 100+n)
		if next == "" {
			break
		}
		cursor = next
	}
	want := "old6,old5,old4|tie-a,old3,old2|old1,old0"
	if got := strings.Join(pages, "|"); got != want {
		t.Errorf("pages = %s, want %s", got, want)
	}
	infos, _, err := s.List(ListOptions{Limit: 2})
	if err != nil || ids(infos) != "new2,new1" {
		t.Errorf("first page now = %s, %v; want new2,new1", ids(infos), err)
	}
}

func TestListCwdFilter(t *testing.T) {
	s, _ := newTestStore(t)
	a, b := testCwd("a"), testCwd("b")
	session(t, s, "a1", a, 1)
	session(t, s, "b1", b, 2)
	session(t, s, "a2", a, 3)
	session(t, s, "sub", filepath.Join(a, "sub"), 4)
	tests := []struct {
		cwd, want string
	}{
		{"", "sub,a2,b1,a1"},
		{a, "a2,a1"},
		{a + string(filepath.Separator), "a2,a1"},
		{b, "b1"},
		{testCwd("none"), ""},
	}
	for _, tt := range tests {
		infos, next, err := s.List(ListOptions{Cwd: tt.cwd})
		if err != nil || next != "" || ids(infos) != tt.want {
			t.Errorf("List(%q) = %s, %q, %v; want %s", tt.cwd, ids(infos), next, err, tt.want)
		}
	}
}

func TestListInfo(t *testing.T) {
	s, _ := newTestStore(t)
	w, err := s.Create(Meta{ID: "x", Cwd: testCwd("p"), AdditionalDirectories: []string{"/extra"}, CreatedAt: t0})
	if err != nil {
		t.Fatal(err)
	}
	check := func(stage, title string, updated time.Time) {
		t.Helper()
		infos, _, err := s.List(ListOptions{})
		if err != nil || len(infos) != 1 {
			t.Fatalf("%s: List = %+v, %v", stage, infos, err)
		}
		in := infos[0]
		if in.ID != "x" || in.Cwd != testCwd("p") || len(in.AdditionalDirectories) != 1 ||
			!in.CreatedAt.Equal(t0) || in.Title != title || !in.UpdatedAt.Equal(updated) {
			t.Errorf("%s: info = %+v, want title %q updated %v", stage, in, title, updated)
		}
	}
	check("created", "", t0)
	mustAppend(t, w, rec("user", 5, "a"))
	check("appended, not synced", "", t0.Add(5*time.Second)) // List rescans the grown log
	if err := w.SetTitle("First title"); err != nil {
		t.Fatal(err)
	}
	infos, _, _ := s.List(ListOptions{})
	titled := infos[0].UpdatedAt
	check("titled", "First title", titled)
	w.SetTitle("Second title")
	mustAppend(t, w, rec("model", 3600, "b"))
	if err := w.Sync(); err != nil {
		t.Fatal(err)
	}
	check("synced", "Second title", t0.Add(time.Hour))
	w.Close()
	// A fresh Store reads the same from the index alone.
	fresh := Open(filepath.Dir(s.root), nil)
	infos, _, err = fresh.List(ListOptions{})
	if err != nil || len(infos) != 1 || infos[0].Title != "Second title" {
		t.Errorf("fresh store: %+v, %v", infos, err)
	}
}

func TestListDefaultLimit(t *testing.T) {
	s, _ := newTestStore(t)
	for i := range DefaultLimit + 3 {
		rawLog(t, s, fmt.Sprintf("s%03d", i), testCwd("p"), line("user"))
	}
	infos, next, err := s.List(ListOptions{})
	if err != nil || len(infos) != DefaultLimit || next == "" {
		t.Fatalf("List = %d infos, %q, %v; want %d and a cursor", len(infos), next, err, DefaultLimit)
	}
	rest, next, err := s.List(ListOptions{Cursor: next, Limit: -1})
	if err != nil || len(rest) != 3 || next != "" || rest[2].ID != "s000" {
		t.Errorf("second page = %s, %q, %v", ids(rest), next, err)
	}
}

func TestListBadCursor(t *testing.T) {
	s, _ := newTestStore(t)
	session(t, s, "a", testCwd("p"), 1)
	b64 := base64.RawURLEncoding.EncodeToString
	for _, c := range []string{"!!!", "abc", b64([]byte("not json")), b64([]byte(`{"u":"2025-01-01T00:00:00Z"}`)),
		b64([]byte(`{"u":"yesterday","id":"a"}`)), b64([]byte(`{"u":"2025-01-01T00:00:00Z","id":"../a"}`))} {
		if _, _, err := s.List(ListOptions{Cursor: c}); !errors.Is(err, ErrBadCursor) {
			t.Errorf("List(cursor %q) = %v, want ErrBadCursor", c, err)
		}
	}
}

func TestIndexRebuild(t *testing.T) {
	s, logs := newTestStore(t)
	cwd := testCwd("p")
	dir := filepath.Join(s.root, ProjectKey(cwd))
	w := create(t, s, "a", cwd)
	w.SetTitle("Alpha")
	mustAppend(t, w, rec("user", 10, "x"))
	w.Close()
	session(t, s, "b", cwd, 20)
	want := "b 20s |a 10s Alpha"
	check := func(stage string) {
		t.Helper()
		infos, _, err := s.List(ListOptions{})
		if err != nil {
			t.Fatalf("%s: %v", stage, err)
		}
		var got []string
		for _, in := range infos {
			got = append(got, fmt.Sprintf("%s %v %s", in.ID, in.UpdatedAt.Sub(t0), in.Title))
		}
		if strings.Join(got, "|") != want {
			t.Errorf("%s: List = %q, want %q", stage, strings.Join(got, "|"), want)
		}
		if idx := s.readIndex(dir); len(idx.Sessions) != len(infos) {
			t.Errorf("%s: index on disk has %d entries, want %d", stage, len(idx.Sessions), len(infos))
		}
	}
	check("written")
	index := filepath.Join(dir, indexName)
	os.Remove(index)
	check("index removed")
	os.WriteFile(index, []byte("{not json"), 0o600)
	check("index damaged")
	if !strings.Contains(logs.String(), "rebuilding a damaged index") {
		t.Error("damaged index not logged")
	}
	// Another process appends to a, retitles it, and leaves a torn line.
	f, err := os.OpenFile(logPath(dir, "a"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"title","time":"2025-03-01T12:00:30Z","data":{"title":"Beta"}}` + "\n" + `{"type":"user","ti`)
	f.Close()
	want = "a 30s Beta|b 20s "
	check("log grew behind the index")
	// A log removed behind the store's back leaves the index.
	os.Remove(logPath(dir, "b"))
	want = "a 30s Beta"
	check("log removed")
	// A log added by hand is picked up.
	rawLog(t, s, "c", cwd, `{"type":"title","time":"2025-03-01T12:00:40Z","data":"Gamma"}`+"\n")
	want = "c 40s Gamma|a 30s Beta"
	check("log added")
}

func TestScanIncremental(t *testing.T) {
	s, _ := newTestStore(t)
	path := rawLog(t, s, "a", testCwd("p"), line("user"))
	fi, _ := os.Stat(path)
	first, err := scanLog(path, nil, fi.Size())
	if err != nil || first.Offset != fi.Size() || !first.UpdatedAt.Equal(t0.Add(time.Second)) {
		t.Fatalf("scan = %+v, %v", first, err)
	}
	// Damage the header in place and grow the log: a scan that starts
	// where the last one stopped never sees the header again.
	raw, _ := os.ReadFile(path)
	raw[0] = 'X'
	raw = append(raw, `{"type":"title","time":"2025-03-01T12:00:09Z","data":{"title":"T"}}`+"\n"...)
	os.WriteFile(path, raw, 0o600)
	grown, err := scanLog(path, first, int64(len(raw)))
	if err != nil || grown.Title != "T" || !grown.UpdatedAt.Equal(t0.Add(9*time.Second)) || grown.Cwd != testCwd("p") {
		t.Errorf("incremental scan = %+v, %v", grown, err)
	}
	// A log shorter than the recorded offset is scanned from the start.
	if _, err := scanLog(path, &entry{Offset: int64(len(raw)) + 1}, int64(len(raw))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("full scan of the damaged header = %v, want ErrCorrupt", err)
	}
	// So is one whose recorded offset does not follow a newline.
	if _, err := scanLog(path, &entry{Offset: 5}, int64(len(raw))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("scan from a mid-line offset = %v, want ErrCorrupt", err)
	}
}

// TestListTitled: with Titled, a session never named (opened, never
// prompted) is left out, and pages still follow on.
func TestListTitled(t *testing.T) {
	s, _ := newTestStore(t)
	cwd := testCwd("a")
	for i, id := range []string{"used1", "empty", "used2"} {
		w := create(t, s, id, cwd)
		mustAppend(t, w, rec("settings", i+1, "x"))
		if id != "empty" {
			if err := w.SetTitle("title of " + id); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	infos, next, err := s.List(ListOptions{Cwd: cwd, Titled: true, Limit: 1})
	if err != nil || ids(infos) != "used2" || next == "" {
		t.Fatalf("first page = %s, %q, %v", ids(infos), next, err)
	}
	infos, next, err = s.List(ListOptions{Cwd: cwd, Titled: true, Cursor: next})
	if err != nil || ids(infos) != "used1" || next != "" {
		t.Errorf("second page = %s, %q, %v; want used1", ids(infos), next, err)
	}
	if infos, _, _ := s.List(ListOptions{Cwd: cwd}); len(infos) != 3 {
		t.Errorf("without Titled = %s, want all three", ids(infos))
	}
}
