//go:build unix

package builtin

import (
	"io/fs"
	"os"
	"syscall"
)

// listTyped reads dir's entries from a duplicate of its handle opened
// outside the os.Root, whose ReadDir takes each entry's type from the
// listing (d_type) instead of a stat per entry. The handle was opened
// confined; the listing reads nothing else.
func listTyped(dir *os.Root) ([]fs.DirEntry, error) {
	f, err := dir.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return f.ReadDir(-1)
	}
	plain := os.NewFile(uintptr(fd), f.Name())
	defer plain.Close()
	return plain.ReadDir(-1)
}
