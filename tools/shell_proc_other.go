//go:build !unix

package tools

import (
	"os"
	"syscall"
)

// groupAttr is nil where process groups are not available: only the shell
// itself can be stopped.
func groupAttr() *syscall.SysProcAttr { return nil }

// terminateGroup stops the process (there is no gentler signal here).
func terminateGroup(pid int) { killGroup(pid) }

// killGroup stops the process.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// groupAlive cannot see a group here; the shell's own exit is all there is.
func groupAlive(int) bool { return false }

// exitStatus says how a reaped process ended.
func exitStatus(ps *os.ProcessState) ExitStatus {
	code := ps.ExitCode()
	return ExitStatus{Code: &code}
}
