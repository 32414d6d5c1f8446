//go:build !linux

package procgroup

import (
	"io"
	"os/exec"
)

// guardArgv is nil: commands are guarded on Linux only.
func guardArgv() []string { return nil }

// startGuard starts nothing where there is no guard.
func startGuard([]string) (io.WriteCloser, int) { return nil, 0 }

// Guard is the guard's entry point; there is none here, so it fails.
func Guard([]string) int { return 2 }

// keeper is what a command leaves outside its group; only Linux keeps it.
type keeper struct{}

// keeperArgv is nil: only Linux keeps what commands leave behind.
func keeperArgv() []string { return nil }

// newKeeper keeps nothing here.
func newKeeper([]string) *keeper { return nil }

// start starts cmd in a process group of its own, unguarded here.
func (*keeper) start(cmd *exec.Cmd, guard []string) error { return start(cmd, guard) }
