//go:build unix

package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRemoveIfStale removes only abandoned temporary files: companion's
// name, a process that is gone, a free lock, old enough.
func TestRemoveIfStale(t *testing.T) {
	dir := t.TempDir()
	gone := 1<<22 + 4244
	tmp := func(n string) string { return fmt.Sprintf(".%s.companion-%d-q1.tmp", n, gone) }
	mine := fmt.Sprintf(".m.companion-%d-q1.tmp", os.Getpid())
	old := time.Now().Add(-time.Hour)
	for _, tc := range []struct {
		name    string
		age     time.Time
		lock    bool
		removed bool
	}{
		{tmp("old"), old, false, true},
		{tmp("locked"), old, true, false},
		{tmp("young"), time.Now(), false, false},
		{".legacy.companion-123", old, false, true},
		{".legacy2.companion-123", time.Now().Add(-2 * staleTempAge), false, false},
		{mine, old, false, false},
		{"plain.txt", old, false, false},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, tc.age, tc.age); err != nil {
			t.Fatal(err)
		}
		if tc.lock {
			f, err := os.OpenFile(p, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			lockTemp(f)
			defer f.Close()
		}
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := SweepStaleTemps(context.Background(), dir); n != 2 {
		t.Errorf("SweepStaleTemps removed %d, want 2", n)
	}
	for _, want := range []string{tmp("locked"), tmp("young"), ".legacy2.companion-123", mine, "plain.txt"} {
		if _, err := r.Lstat(want); err != nil {
			t.Errorf("%s was removed: %v", want, err)
		}
	}
}
