package store

import (
	"errors"
	"testing"
)

func TestCopyKeepsPrefixAndSource(t *testing.T) {
	s, _ := newTestStore(t)
	cwd := testCwd("proj")
	w := create(t, s, "src", cwd)
	mustAppend(t, w, rec("user", 1, "one"), rec(TypeTitle, 2, map[string]string{"title": "First"}), rec("user", 3, "two"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, recs, err := s.Load("src")
	if err != nil {
		t.Fatal(err)
	}
	if got := LastTitle(recs); got != "First" {
		t.Fatalf("LastTitle = %q, want First", got)
	}
	if err := s.Copy(Meta{ID: "dst", Cwd: cwd}, recs[:2], "First (fork)"); err != nil {
		t.Fatalf("Copy: %v", err)
	}
	meta, got, err := s.Load("dst")
	if err != nil {
		t.Fatal(err)
	}
	if meta.Cwd != cwd || len(got) != 3 || string(got[0].Data) != `"one"` || !got[0].Time.Equal(recs[0].Time) {
		t.Fatalf("copy = %+v %+v", meta, got)
	}
	if LastTitle(got) != "First (fork)" {
		t.Errorf("copy title = %q", LastTitle(got))
	}
	if _, src, _ := s.Load("src"); len(src) != 3 {
		t.Errorf("source changed: %d records", len(src))
	}
	if err := s.Copy(Meta{ID: "dst", Cwd: cwd}, recs, ""); !errors.Is(err, ErrExists) {
		t.Errorf("Copy onto an existing id: %v, want ErrExists", err)
	}
	if err := s.Copy(Meta{ID: "bad", Cwd: cwd}, []Record{{Type: ""}}, ""); err == nil {
		t.Error("Copy of a bad record succeeded")
	}
	if _, ok := s.Find("bad"); ok {
		t.Error("a failed copy left its log behind")
	}
}
