//go:build unix

package hooks

import "syscall"

// groupAttr starts a hook in a process group of its own, so that it and
// everything it starts can be killed together.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills every process of the group led by pid.
func killGroup(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }
