//go:build !linux

package sandbox

import (
	"fmt"
	"os"
)

// RunHelper is the Landlock helper, Linux only: here it fails with 125.
func RunHelper([]string) int {
	fmt.Fprintln(os.Stderr, "companion sandbox: the Landlock helper runs on Linux only")
	return 125
}
