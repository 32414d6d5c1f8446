package host

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/agent/store"
)

// TestStoredSession: sessions are numbered in the order they were
// created (1 the oldest), whatever was updated last; a number, latest or
// an id finds one of the folder's sessions; a number or id the folder
// lacks is ErrNoStoredSession, saying how many there are.
func TestStoredSession(t *testing.T) {
	h := newTestHost(t)
	cwd, _ := filepath.EvalSymlinks(t.TempDir())
	other, _ := filepath.EvalSymlinks(t.TempDir())
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	create := func(dir, title string, created time.Time) string {
		t.Helper()
		w, err := h.Store().Create(store.Meta{ID: "s-" + title, Cwd: dir, CreatedAt: created})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if err := w.SetTitle(title); err != nil {
			t.Fatal(err)
		}
		return w.ID()
	}
	// created out of order on purpose: the second created is written first
	second := create(cwd, "second", base.Add(time.Hour))
	first := create(cwd, "first", base)
	foreign := create(other, "elsewhere", base)
	tests := []struct {
		which, want, err string
	}{
		{"1", first, ""},
		{"2", second, ""},
		{"3", "", "numbered 3 in " + cwd + ": there are 2 (1 to 2)"},
		{"0", "", "numbered 0"},
		{first, first, ""},
		{foreign, "", "no stored session"},
		{ResumeLatest, "", ""}, // the one updated last: checked below
	}
	for _, tt := range tests {
		info, err := h.StoredSession(tt.which, cwd)
		switch {
		case tt.err != "" && (err == nil || !errors.Is(err, ErrNoStoredSession) || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: err %v, want %q", tt.which, err, tt.err)
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.which, err)
		case tt.want != "" && info.ID != tt.want:
			t.Errorf("%s: %s (%s), want %s", tt.which, info.ID, info.Title, tt.want)
		}
	}
	if id, err := h.ResumeID("2", cwd); err != nil || id != second {
		t.Errorf("ResumeID(2) = %s, %v; want %s", id, err, second)
	}
	latest, err := h.StoredSession(ResumeLatest, cwd)
	if err != nil || (latest.ID != first && latest.ID != second) {
		t.Errorf("latest = %+v, %v", latest, err)
	}
	if _, err := h.StoredSession("1", t.TempDir()); !errors.Is(err, ErrNoStoredSession) {
		t.Errorf("an empty folder: %v", err)
	}
}
