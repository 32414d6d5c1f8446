//go:build unix

package tools

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// groupAttr starts a command in a process group of its own, so that it and
// everything it starts can be signalled together.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// terminateGroup asks every process of the group to stop (SIGTERM).
func terminateGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGTERM) }

// killGroup stops every process of the group at once (SIGKILL).
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// groupAlive reports whether any process of the group is left.
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }

// exitStatus says how a reaped process ended.
func exitStatus(ps *os.ProcessState) ExitStatus {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitStatus{Signal: unix.SignalName(ws.Signal())}
	}
	code := ps.ExitCode()
	return ExitStatus{Code: &code}
}
