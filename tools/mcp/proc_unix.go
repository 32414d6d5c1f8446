//go:build unix

package mcp

import "syscall"

// groupAttr starts a server in a process group of its own, so that it and
// everything it starts can be signalled together.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// terminateGroup asks every process of the group led by pid to stop.
func terminateGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGTERM) }

// killGroup stops every process of the group led by pid at once.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
