//go:build !unix

package tools

import "os"

// lockTemp does nothing here: a file open for writing cannot be removed on
// Windows anyway.
func lockTemp(*os.File) {}

// tempLocked cannot tell here and says no.
func tempLocked(*os.Root, string) bool { return false }
