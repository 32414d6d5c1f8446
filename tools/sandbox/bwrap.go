package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// checkTimeout bounds the one-time check that bwrap works.
const checkTimeout = 5 * time.Second

// Args is the bwrap command line (without the program name) that runs
// argv in mode m with roots readable (read-only; bound again so that a
// root under /tmp is not hidden by the private /tmp) or writable
// (workspace-write) and, unless network, no network. roots must be
// absolute; only the protected paths of a root that exist (exists reports
// it) are bound read-only.
func Args(m Mode, network bool, roots []string, exists func(string) bool, argv []string) []string {
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"}
	switch m {
	case ReadOnly:
		// Roots stay readable where the private /tmp would hide them.
		for _, r := range roots {
			args = append(args, "--ro-bind", r, r)
		}
	case WorkspaceWrite:
		for _, r := range roots {
			args = append(args, "--bind", r, r)
		}
		for _, r := range roots {
			for _, p := range protected {
				if p = filepath.Join(r, p); exists(p) {
					args = append(args, "--ro-bind", p, p)
				}
			}
		}
	}
	if !network {
		args = append(args, "--unshare-net")
	}
	// --new-session keeps a sandboxed command from pushing keystrokes into
	// companion's terminal (TIOCSTI). bwrap itself stays the leader of the
	// process group companion signals; --die-with-parent and the pid
	// namespace take everything inside down with it.
	args = append(args, "--unshare-pid", "--die-with-parent", "--new-session", "--")
	return append(args, argv...)
}

// checkBwrap finds bwrap and checks, by running it once, that it can
// create its namespaces here (user namespaces may be off).
func checkBwrap() (string, error) {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return "", errors.New("bubblewrap (bwrap) is not installed or not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "true").CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("bubblewrap cannot create its namespaces on this machine (%s)", msg)
	}
	return path, nil
}
