//go:build !unix && !windows

package procgroup

import (
	"os"
	"syscall"
)

// Attr adds nothing where process groups are not available.
func Attr() *syscall.SysProcAttr { return nil }

// withAttr leaves a command's own attributes as they are.
func withAttr(a *syscall.SysProcAttr) *syscall.SysProcAttr { return a }

// Terminate kills the process itself.
func Terminate(pid int) error { return Kill(pid) }

// Kill kills the process itself.
func Kill(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

// Alive cannot tell here and says no.
func Alive(int) bool { return false }
