//go:build unix

package tools

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// exitStatus says how a reaped process ended.
func exitStatus(ps *os.ProcessState) ExitStatus {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitStatus{Signal: unix.SignalName(ws.Signal())}
	}
	code := ps.ExitCode()
	return ExitStatus{Code: &code}
}
