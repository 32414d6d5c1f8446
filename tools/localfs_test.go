package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"companion/internal/testkit/testio"
)

// TestTempOwner checks which names removeStaleTemps may treat as its own.
func TestTempOwner(t *testing.T) {
	tests := []struct {
		name string
		pid  int
		ok   bool
	}{
		{".a.txt.companion-123-k3j2.tmp", 123, true},
		{".a.companion-b.txt.companion-9-z.tmp", 9, true},
		{".a.txt.companion-1234567890", 0, true}, // os.CreateTemp's names, before
		{"a.txt.companion-123-k3j2.tmp", 0, false},
		{".a.txt.companion-123-K3J2.tmp", 0, false},
		{".a.txt.companion-x-k3.tmp", 0, false},
		{".a.txt.companion-123-.tmp", 0, false},
		{".a.txt.companion-notes", 0, false},
		{".companion-123-abc.tmp", 0, false},
		{"plain.txt", 0, false},
	}
	for _, tt := range tests {
		pid, ok := tempOwner(tt.name)
		if pid != tt.pid || ok != tt.ok {
			t.Errorf("tempOwner(%q) = %d, %v; want %d, %v", tt.name, pid, ok, tt.pid, tt.ok)
		}
	}
}

// TestStaleTempsRemoved leaves temporary files as crashed writes do and
// checks the next write in the folder removes exactly the stale ones.
func TestStaleTempsRemoved(t *testing.T) {
	root := testio.RealTempDir(t)
	roots, err := NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	gone := 1<<22 + 12345 // above Linux's default pid_max: no such process
	files := []struct {
		name   string
		mtime  time.Time
		remove bool
	}{
		{fmt.Sprintf(".a.txt.companion-%d-abc.tmp", gone), old, true},
		{".b.txt.companion-1234567890", old, true},
		{fmt.Sprintf(".a.txt.companion-%d-new.tmp", gone), time.Now(), false},              // recent: a write may be running
		{fmt.Sprintf(".a.txt.companion-%d-own.tmp", os.Getpid()), old, false},              // this process is alive
		{".a.txt.companion-notes", old, false},                                             // not a temporary name
		{fmt.Sprintf("a.txt.companion-%d-abc.tmp", gone), old, false},                      // not hidden
		{fmt.Sprintf(".c.txt.companion-%d-abc.tmp", os.Getppid()), old, os.Getppid() == 1}, // a live parent
	}
	for _, f := range files {
		p := filepath.Join(root, f.name)
		testio.WriteFile(t, p, []byte("partial"))
		if err := os.Chtimes(p, f.mtime, f.mtime); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteLocal(roots, filepath.Join(root, "a.txt"), "done\n", 0, true); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		_, err := os.Lstat(filepath.Join(root, f.name))
		if removed := errors.Is(err, fs.ErrNotExist); removed != f.remove {
			t.Errorf("%s: removed = %v, want %v", f.name, removed, f.remove)
		}
	}
	entries, _ := os.ReadDir(root)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Contains(names, "a.txt") {
		t.Errorf("a.txt not written: %v", names)
	}
}

// TestMissingLocally: only a path the disk lacks counts as missing; an
// existing file, readable or not, does not.
func TestMissingLocally(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "there.txt")
	if err := os.WriteFile(file, []byte("x"), 0o000); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if MissingLocally(ctx, file) {
		t.Error("an existing file counted as missing")
	}
	if !MissingLocally(ctx, filepath.Join(dir, "new.txt")) {
		t.Error("a missing file did not count as missing")
	}
}
