//go:build !windows

package shell

import "os/exec"

// SetCommandLine leaves cmd as it is: only Windows has raw command lines.
func SetCommandLine(*exec.Cmd, []string) {}
