package sandbox

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// dropCaps leaves the helper, and the command it executes, no capability:
// it empties the bounding set (so that executing a program as root grants
// none), the ambient set and the helper's own sets. Without this a
// command run as root keeps CAP_SYS_PTRACE and reads companion's memory
// and environment through /proc whatever Landlock says, and keeps
// CAP_SYS_ADMIN, CAP_SYS_MODULE and the rest. An ordinary user has no
// capability to drop; emptying its bounding set needs CAP_SETPCAP, which
// it lacks (no_new_privs keeps it from gaining any).
func dropCaps() error {
	root := os.Geteuid() == 0
	for c := 0; ; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_READ, uintptr(c), 0, 0, 0); err != nil {
			break // past the last capability this kernel knows
		}
		err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
		if err != nil && (root || !errors.Is(err, unix.EPERM)) {
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var none [2]unix.CapUserData
	if err := unix.Capset(&hdr, &none[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	return nil
}
