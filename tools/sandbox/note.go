package sandbox

import (
	"fmt"
	"strings"
)

// blockedSigns are what commands print when the sandbox stopped them: a
// write to a read-only mount, or no network.
var blockedSigns = []string{"Read-only file system", "Network is unreachable", "Could not resolve host",
	"Temporary failure in name resolution", "Name or service not known", "Couldn't connect to server"}

// deniedSigns are what commands print when Landlock, the seccomp filter
// or Seatbelt refused them: the kernel answers EACCES or EPERM there.
var deniedSigns = []string{"Permission denied", "Operation not permitted"}

// Note is the line to add to the result of a command that failed with
// output, when the output shows the sandbox stopped it; "" otherwise.
func (s *Sandbox) Note(failed bool, output string) string {
	if !s.Active() || !failed {
		return ""
	}
	signs := blockedSigns
	if b := s.Backend().Name; b == Landlock || b == Seatbelt {
		signs = append(signs[:len(signs):len(signs)], deniedSigns...)
	}
	for _, sign := range signs {
		if strings.Contains(output, sign) {
			return s.note()
		}
	}
	return ""
}

func (s *Sandbox) note() string {
	where := "the session's folders and a private /tmp"
	if s.Mode == ReadOnly {
		where = "a private /tmp"
	}
	net := " and network access is blocked"
	if s.Network {
		net = ""
	}
	msg := fmt.Sprintf("The command ran in the %s sandbox: writes outside %s are blocked%s.", s.Mode, where, net)
	switch s.Backend().Name {
	case Bwrap:
		if s.Mode == WorkspaceWrite {
			msg += " In a session folder without .git nothing can be created, removed or renamed at its top level " +
				"(write inside its folders); .git itself, .git/hooks, .git/config and .companion are never writable."
		}
	case Landlock:
		msg += " " + LandlockLimits(s.Mode)
	case Seatbelt:
		msg += " Under Seatbelt (macOS) the private temporary folder is $TMPDIR; /tmp itself is not writable."
	}
	return msg
}

// LandlockLimits says what the Landlock backend does differently from
// bubblewrap, for the note in a command's result and /status.
func LandlockLimits(m Mode) string {
	s := "Under Landlock (used where bubblewrap cannot run) /tmp is not private and not writable: use $TMPDIR, a " +
		"private folder removed once the command has ended; programs that ignore $TMPDIR fail to write /tmp. Starting a new session or " +
		"process group (setsid, setpgid) is refused."
	if m == WorkspaceWrite {
		s += " In a session folder nothing can be created, removed or renamed at its top level " +
			"or in .git itself (so git add and commit fail: .git/index.lock cannot be made), only inside the entries " +
			"that existed when the command started, .git/hooks, .git/config and .companion excepted."
	}
	return s
}
