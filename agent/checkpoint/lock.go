package checkpoint

import (
	"context"
	"fmt"
	"path/filepath"

	"companion/internal/filelock"
)

// lockState takes the exclusive cross-process lock on dir/lock, creating
// dir when needed, and waits until it is free or ctx ends; see
// internal/filelock.
func lockState(ctx context.Context, dir string) (unlock func(), err error) {
	l, err := filelock.Acquire(ctx, filepath.Join(dir, "lock"))
	if err != nil {
		return nil, fmt.Errorf("lock checkpoint store: %w", err)
	}
	return l.Release, nil
}
