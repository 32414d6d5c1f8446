//go:build windows

package shell

import (
	"os/exec"
	"syscall"
)

// SetCommandLine gives cmd the raw command line cmd.exe needs (see
// CmdLine); other programs keep os/exec's quoting. procgroup.Start adds
// its flags to the attributes set here.
func SetCommandLine(cmd *exec.Cmd, argv []string) {
	line := CmdLine(argv)
	if line == "" {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CmdLine = line
}
