package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockPoll is how often lockState retries a lock another process holds.
const lockPoll = 20 * time.Millisecond

// lockState takes the exclusive cross-process lock on dir/lock, creating dir
// when needed, and waits (polling) until it is free or ctx ends. The lock
// belongs to the open file, so the operating system drops it when the
// process dies: a crash never leaves the store locked.
func lockState(ctx context.Context, dir string) (unlock func(), err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create checkpoint directory: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open checkpoint lock: %w", err)
	}
	for {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock checkpoint store: %w", err)
		}
		if ok {
			return func() { unlockFile(f); f.Close() }, nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(lockPoll):
		}
	}
}
