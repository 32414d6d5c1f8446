//go:build unix || windows

package filelock

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestLockWaitEndsWithContext: waiting for a held lock ends with the
// context's error, and the lock is free again once released.
func TestLockWaitEndsWithContext(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "file.lock")
	held, err := Acquire(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		l, err := Acquire(ctx, path)
		if err == nil {
			l.Release()
		}
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting for a held lock, cancelled: err = %v, want context.Canceled", err)
	}
	held.Release()
	l, err := Acquire(t.Context(), path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	l.Release()
}

// TestLockFileMode: the lock file and its new directory are private.
func TestLockFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no Unix permission bits")
	}
	path := filepath.Join(t.TempDir(), "state", "file.lock")
	l, err := Acquire(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700 | os.ModeDir} {
		if fi, err := os.Stat(p); err != nil || fi.Mode() != want {
			t.Errorf("%s: mode %v (%v), want %v", p, fi.Mode(), err, want)
		}
	}
}
