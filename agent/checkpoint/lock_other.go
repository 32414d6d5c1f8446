//go:build !unix && !windows

package checkpoint

import "os"

// tryLock always succeeds: this platform has no file locks, so only the
// Store's own mutex serialises access.
func tryLock(*os.File) (bool, error) { return true, nil }

// unlockFile does nothing.
func unlockFile(*os.File) {}
