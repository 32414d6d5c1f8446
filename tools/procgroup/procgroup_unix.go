//go:build unix

package procgroup

import "syscall"

// Attr makes a command the leader of a new process group.
func Attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// withAttr adds Attr's setting to a command's own attributes.
func withAttr(a *syscall.SysProcAttr) *syscall.SysProcAttr {
	if a == nil {
		return Attr()
	}
	a.Setpgid = true
	return a
}

// Terminate asks every process of the group led by pid to stop (SIGTERM).
func Terminate(pid int) error { return syscall.Kill(-pid, syscall.SIGTERM) }

// Kill stops every process of the group led by pid at once (SIGKILL).
func Kill(pid int) error { return syscall.Kill(-pid, syscall.SIGKILL) }

// Alive reports whether any process of the group led by pid is left.
func Alive(pid int) bool { return syscall.Kill(-pid, 0) == nil }
