// Package filelock is an exclusive advisory lock on a file, shared between
// processes: flock on unix, LockFileEx on Windows. Companion processes
// started by different editors on one machine use it around files they all
// rewrite (the checkpoint store, the MCP OAuth grants). The lock belongs to
// the open file, so the operating system drops it when a process dies: a
// crash never leaves a file locked. On platforms with neither, Acquire
// always succeeds and callers serialise within their own process.
package filelock
