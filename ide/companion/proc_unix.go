//go:build unix

package companion

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// signalAlive asks the kernel whether pid exists: signal 0 succeeds, or is
// refused because the process belongs to someone else.
func signalAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByCurrentUser compares a file's owner with the process's user.
func ownedByCurrentUser(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	return int(st.Uid) == os.Getuid()
}
