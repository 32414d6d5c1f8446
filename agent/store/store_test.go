package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRoundTrip(t *testing.T) {
	s, _ := newTestStore(t)
	meta := Meta{ID: "sess-1", Cwd: testCwd("My Repo"), AdditionalDirectories: []string{"/a", "/b c"},
		CreatedAt: t0.In(time.FixedZone("X", 3600))}
	w, err := s.Create(meta)
	if err != nil {
		t.Fatal(err)
	}
	in := []Record{
		rec("user", 1, map[string]any{"text": "hello <b>&</b> \u2028 ünïcode"}),
		{Type: "model", Time: t0.Add(1500 * time.Millisecond), Data: json.RawMessage("{\n  \"a\" : [1, 2,\t3]\n}")},
		{Type: "event", Time: t0.Add(2 * time.Second)},
		{Type: "weird \"type\" é", Time: t0.Add(3 * time.Second), Data: json.RawMessage(`null`)},
		{Type: "tool_state", Time: t0.Add(4*time.Second + 7), Data: json.RawMessage(`"a\nb"`)},
	}
	mustAppend(t, w, in[:2]...)
	mustAppend(t, w, in[2:]...)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, recs, err := s.Load("sess-1")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != meta.ID || got.Cwd != meta.Cwd || !got.CreatedAt.Equal(meta.CreatedAt) ||
		!reflect.DeepEqual(got.AdditionalDirectories, meta.AdditionalDirectories) {
		t.Errorf("meta = %+v, want %+v", got, meta)
	}
	if len(recs) != len(in) {
		t.Fatalf("got %d records, want %d", len(recs), len(in))
	}
	for i, r := range recs {
		var want bytes.Buffer
		if len(in[i].Data) > 0 {
			json.Compact(&want, in[i].Data)
		}
		if r.Type != in[i].Type || !r.Time.Equal(in[i].Time) || !bytes.Equal(r.Data, want.Bytes()) {
			t.Errorf("record %d = %s %v %s, want %s %v %s", i, r.Type, r.Time, r.Data, in[i].Type, in[i].Time, want.Bytes())
		}
	}
}

func TestZeroTimeIsNow(t *testing.T) {
	s, _ := newTestStore(t)
	w := create(t, s, "a", testCwd("p"))
	before := time.Now()
	mustAppend(t, w, Record{Type: "user"})
	w.Close()
	_, recs, err := s.Load("a")
	if err != nil || len(recs) != 1 {
		t.Fatalf("Load = %v, %v", recs, err)
	}
	if recs[0].Time.Before(before.Add(-time.Second)) || recs[0].Data != nil {
		t.Errorf("record = %+v, want the current time and no data", recs[0])
	}
}

func TestCreateErrors(t *testing.T) {
	s, _ := newTestStore(t)
	open := create(t, s, "taken", testCwd("p"))
	defer open.Close()
	closed := create(t, s, "closed", testCwd("q"))
	closed.Close()
	tests := []struct {
		name string
		meta Meta
		want error
	}{
		{"empty id", Meta{Cwd: testCwd("p")}, ErrBadID},
		{"slash", Meta{ID: "a/b", Cwd: testCwd("p")}, ErrBadID},
		{"dot dot", Meta{ID: "..", Cwd: testCwd("p")}, ErrBadID},
		{"too long", Meta{ID: strings.Repeat("x", 129), Cwd: testCwd("p")}, ErrBadID},
		{"relative cwd", Meta{ID: "r", Cwd: "rel/dir"}, ErrBadMeta},
		{"no cwd", Meta{ID: "r"}, ErrBadMeta},
		{"open id", Meta{ID: "taken", Cwd: testCwd("p")}, ErrInUse},
		{"existing id, other project", Meta{ID: "closed", Cwd: testCwd("other")}, ErrExists},
		{"bad time", Meta{ID: "r", Cwd: testCwd("p"), CreatedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}, ErrBadMeta},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := s.Create(tt.meta)
			if !errors.Is(err, tt.want) {
				t.Errorf("Create = %v, want %v", err, tt.want)
			}
			if w != nil {
				w.Close()
			}
		})
	}
}

func TestAppendBadRecords(t *testing.T) {
	s, _ := newTestStore(t)
	w := create(t, s, "a", testCwd("p"))
	mustAppend(t, w, rec("first", 1, 1))
	tests := []struct {
		name string
		recs []Record
	}{
		{"empty type", []Record{rec("ok", 2, 2), {Time: t0}}},
		{"invalid data", []Record{rec("ok", 2, 2), {Type: "x", Data: json.RawMessage(`{"a":`)}}},
		{"two values", []Record{{Type: "x", Data: json.RawMessage(`1 2`)}}},
		{"year out of range", []Record{{Type: "x", Time: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}}},
	}
	for _, tt := range tests {
		if err := w.Append(tt.recs...); !errors.Is(err, ErrBadRecord) {
			t.Errorf("%s: Append = %v, want ErrBadRecord", tt.name, err)
		}
	}
	mustAppend(t, w, rec("last", 3, 3))
	w.Close()
	_, recs, err := s.Load("a")
	if got := types(recs); err != nil || got != "first,last" {
		t.Errorf("Load = %q, %v; want first,last (failed calls write nothing)", got, err)
	}
}

func TestWriterAfterClose(t *testing.T) {
	s, _ := newTestStore(t)
	w := create(t, s, "a", testCwd("p"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	if err := w.Append(rec("x", 1, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("Append after Close = %v, want ErrClosed", err)
	}
	if err := w.Sync(); !errors.Is(err, ErrClosed) {
		t.Errorf("Sync after Close = %v, want ErrClosed", err)
	}
	if err := w.SetTitle("t"); !errors.Is(err, ErrClosed) {
		t.Errorf("SetTitle after Close = %v, want ErrClosed", err)
	}
	w2, err := s.Append("a")
	if err != nil {
		t.Fatalf("reopening after Close: %v", err)
	}
	if _, err := s.Append("a"); !errors.Is(err, ErrInUse) {
		t.Errorf("second Append(id) = %v, want ErrInUse", err)
	}
	w2.Close()
}

func TestFind(t *testing.T) {
	s, _ := newTestStore(t)
	for i, cwd := range []string{testCwd("one"), testCwd("two"), testCwd("two/sub")} {
		create(t, s, fmt.Sprintf("s%d", i), cwd).Close()
	}
	// A second Store has no cache: it must scan the project folders.
	fresh := Open(filepath.Dir(s.root), nil)
	for _, st := range []*Store{s, fresh} {
		m, ok := st.Find("s2")
		if !ok || m.Cwd != testCwd("two/sub") || m.ID != "s2" || !m.CreatedAt.Equal(t0) {
			t.Errorf("Find(s2) = %+v, %v", m, ok)
		}
		for _, id := range []string{"nope", "", "../s1", "index"} {
			if _, ok := st.Find(id); ok {
				t.Errorf("Find(%q) found a session", id)
			}
		}
	}
}

func TestDelete(t *testing.T) {
	s, _ := newTestStore(t)
	cwd := testCwd("p")
	create(t, s, "a", cwd).Close()
	create(t, s, "b", cwd).Close()
	open := create(t, s, "c", cwd)
	defer open.Close()
	if err := s.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("a"); err != nil {
		t.Errorf("deleting again = %v, want nil", err)
	}
	if err := s.Delete("never"); err != nil {
		t.Errorf("deleting an unknown id = %v, want nil", err)
	}
	if err := s.Delete("c"); !errors.Is(err, ErrInUse) {
		t.Errorf("deleting an open session = %v, want ErrInUse", err)
	}
	if err := s.Delete("../x"); !errors.Is(err, ErrBadID) {
		t.Errorf("deleting a bad id = %v, want ErrBadID", err)
	}
	if _, ok := s.Find("a"); ok {
		t.Error("Find finds a deleted session")
	}
	if _, _, err := s.Load("a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load of a deleted session = %v, want ErrNotFound", err)
	}
	idx := s.readIndex(filepath.Join(s.root, ProjectKey(cwd)))
	if _, ok := idx.Sessions["a"]; ok || len(idx.Sessions) != 2 {
		t.Errorf("index after delete = %v, want b and c", idx.Sessions)
	}
}

func TestConcurrentAppend(t *testing.T) {
	s, _ := newTestStore(t)
	w := create(t, s, "a", testCwd("p"))
	const writers, each = 8, 50
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				if err := w.Append(rec(fmt.Sprintf("g%d", g), i, i)); err != nil {
					t.Error(err)
				}
				if i%10 == 0 {
					w.Sync()
				}
			}
		})
	}
	wg.Go(func() { // readers alongside: they see a prefix, never an error
		for range 20 {
			if _, _, err := s.List(ListOptions{}); err != nil {
				t.Error(err)
			}
			if _, _, err := s.Load("a"); err != nil {
				t.Error(err)
			}
		}
	})
	wg.Wait()
	w.Close()
	_, recs, err := s.Load("a")
	if err != nil || len(recs) != writers*each {
		t.Fatalf("Load: %d records, %v; want %d", len(recs), err, writers*each)
	}
	next := map[string]int{}
	for _, r := range recs {
		var i int
		json.Unmarshal(r.Data, &i)
		if i != next[r.Type] {
			t.Fatalf("%s: record %d out of order, want %d", r.Type, i, next[r.Type])
		}
		next[r.Type]++
	}
}

func TestProjectKey(t *testing.T) {
	tests := []struct{ cwd, prefix string }{
		{"/home/me/myrepo", "myrepo-"},
		{"/home/me/My Repo!!", "my-repo-"},
		{"/home/me/myrepo/", "myrepo-"},
		{"/", "root-"},
		{"/x/" + strings.Repeat("a", 50), strings.Repeat("a", 32) + "-"},
	}
	for _, tt := range tests {
		k := ProjectKey(tt.cwd)
		if !strings.HasPrefix(k, tt.prefix) || len(k) != len(tt.prefix)+8 {
			t.Errorf("ProjectKey(%q) = %q, want %s + 8 hex digits", tt.cwd, k, tt.prefix)
		}
	}
	if ProjectKey("/a/myrepo") == ProjectKey("/b/myrepo") {
		t.Error("different paths share a key")
	}
	if ProjectKey("/a/myrepo") != ProjectKey("/a/./myrepo/") {
		t.Error("equal paths get different keys")
	}
}

func TestFilePermissions(t *testing.T) {
	s, _ := newTestStore(t)
	create(t, s, "a", testCwd("p")).Close()
	fi, err := os.Stat(logPath(filepath.Join(s.root, ProjectKey(testCwd("p"))), "a"))
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 && os.PathSeparator == '/' {
		t.Errorf("log mode %v, want private", perm)
	}
}
