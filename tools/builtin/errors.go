package builtin

import "errors"

// errStopWalk is returned by a walk visitor to end the walk early; walk
// itself then returns nil.
var errStopWalk = errors.New("stop walk")

// errRipgrep wraps a failed ripgrep run; grep then searches in Go.
var errRipgrep = errors.New("ripgrep failed")

// errTerminalReleased means a background terminal was killed and released,
// so its output is gone.
var errTerminalReleased = errors.New("the terminal was released")
