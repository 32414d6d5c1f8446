//go:build !unix

package builtin

import (
	"os"

	"companion/tools"
)

// exitStatus says how a reaped process ended.
func exitStatus(ps *os.ProcessState) tools.ExitStatus {
	code := ps.ExitCode()
	return tools.ExitStatus{Code: &code}
}
