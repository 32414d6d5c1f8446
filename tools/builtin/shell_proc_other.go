//go:build !unix

package builtin

import "os"

// exitStatus says how a reaped process ended.
func exitStatus(ps *os.ProcessState) ExitStatus {
	code := ps.ExitCode()
	return ExitStatus{Code: &code}
}
