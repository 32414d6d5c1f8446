package sandbox

import "golang.org/x/sys/unix"

// NoDump makes the calling process non-dumpable (PR_SET_DUMPABLE 0): its
// /proc files (environ, mem, maps, fd …) become root's, and only a process
// with CAP_SYS_PTRACE may read its memory or trace it. companion calls it
// first thing, in every role (the agent, the guard, the sandbox helper),
// because its environment holds the user's API keys: an ordinary user's
// commands, sandboxed or not, can then no longer read them through
// /proc/PID/environ. execve sets the flag back to dumpable, so each
// process must call it for itself; the commands companion runs stay
// dumpable (they need their own /proc files).
func NoDump() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
