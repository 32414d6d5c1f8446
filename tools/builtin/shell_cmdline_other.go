//go:build !windows

package builtin

import "os/exec"

// setCommandLine leaves cmd as it is: only Windows has raw command lines.
func setCommandLine(*exec.Cmd, []string) {}
