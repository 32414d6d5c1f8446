//go:build !unix

package hooks

import (
	"os"
	"syscall"
)

// groupAttr is nil where process groups are not available: only the shell
// itself can be killed.
func groupAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the process pid.
func killGroup(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}
