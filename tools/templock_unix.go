//go:build unix

package tools

import (
	"errors"
	"os"
	"syscall"
)

// lockTemp locks a temporary file for as long as its writer has it open
// (the lock goes with the process, however it ends), so no sweep takes it
// for abandoned. A file system without locks leaves it unlocked.
func lockTemp(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) }

// tempLocked reports whether a writer still holds name's lock.
func tempLocked(r *os.Root, name string) bool {
	f, err := r.Open(name)
	if err != nil {
		return true // cannot tell: leave it
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return errors.Is(err, syscall.EWOULDBLOCK)
}
