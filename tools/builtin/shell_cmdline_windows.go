//go:build windows

package builtin

import (
	"os/exec"
	"syscall"
)

// setCommandLine gives cmd the raw command line cmd.exe needs (see
// cmdCommandLine); other programs keep os/exec's quoting. procgroup.Start
// adds its flags to the attributes set here.
func setCommandLine(cmd *exec.Cmd, argv []string) {
	line := cmdCommandLine(argv)
	if line == "" {
		return
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CmdLine = line
}
