//go:build !unix

package policy

import "io/fs"

// hardLinks is the file's link count; this system does not report it.
func hardLinks(fs.FileInfo) uint64 { return 1 }
