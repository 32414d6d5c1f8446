//go:build !unix

package builtin

import (
	"io/fs"
	"os"
)

// listTyped reads dir's entries; outside Unix, os.Root's ReadDir takes
// their types from the listing already.
func listTyped(dir *os.Root) ([]fs.DirEntry, error) {
	f, err := dir.Open(".")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}
