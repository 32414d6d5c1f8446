package chat

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// terminalFlush returns a function that discards what was typed on the
// terminal in but not yet read, or nil when in is no terminal.
func terminalFlush(in io.Reader) func() {
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	fd := int(f.Fd())
	return func() { _ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }
}
