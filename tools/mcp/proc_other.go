//go:build !unix

package mcp

import (
	"os"
	"syscall"
)

// groupAttr is nil where process groups are not available.
func groupAttr() *syscall.SysProcAttr { return nil }

// terminateGroup stops the process (no groups here).
func terminateGroup(pid int) { killGroup(pid) }

// killGroup stops the process (no groups here).
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
