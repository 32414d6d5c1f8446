package filelock

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Polling: a lock another process holds is tried again after pollMin,
// doubling up to pollMax, until it is free or the context ends.
const (
	pollMin = 2 * time.Millisecond
	pollMax = 50 * time.Millisecond
)

// Lock is a held lock; Release drops it.
type Lock struct{ f *os.File }

// Acquire takes the exclusive lock on path, creating its directory (0700)
// and the file (0600) when needed, and waits until it is free or ctx ends
// (then the error wraps ctx.Err()).
func Acquire(ctx context.Context, path string) (*Lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	wait := pollMin
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			return &Lock{f: f}, nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, pollMax)
	}
}

// Release drops the lock and closes its file.
func (l *Lock) Release() {
	unlockFile(l.f)
	l.f.Close()
}
