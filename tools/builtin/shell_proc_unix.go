//go:build unix

package builtin

import (
	"os"
	"syscall"

	"companion/tools"

	"golang.org/x/sys/unix"
)

// exitStatus says how a reaped process ended.
func exitStatus(ps *os.ProcessState) tools.ExitStatus {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return tools.ExitStatus{Signal: unix.SignalName(ws.Signal())}
	}
	code := ps.ExitCode()
	return tools.ExitStatus{Code: &code}
}
