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
// (workspace-write, see writableBinds) and, unless network, no network.
// The command keeps no capability (it matters where companion runs as
// root). roots must be absolute; look reads them.
func Args(m Mode, network bool, roots []string, look Look, argv []string) []string {
	args := []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"}
	switch m {
	case ReadOnly:
		// Roots stay readable where the private /tmp would hide them.
		for _, r := range roots {
			args = append(args, "--ro-bind", r, r)
		}
	case WorkspaceWrite:
		for _, r := range roots {
			args = append(args, writableBinds(r, guarded, look)...)
		}
	}
	if !network {
		args = append(args, "--unshare-net")
	}
	// --new-session keeps a sandboxed command from pushing keystrokes into
	// companion's terminal (TIOCSTI). bwrap itself stays the leader of the
	// process group companion signals; --die-with-parent and the pid
	// namespace take everything inside down with it.
	args = append(args, "--unshare-pid", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--")
	return append(args, argv...)
}

// writableBinds are the binds that make dir writable save its guarded
// entries gs. Each guarded entry that exists is pinned by a mount of its
// own (a mount point can be neither renamed, removed nor replaced): a
// guarded folder with inner entries is bound writable and guards them in
// turn, anything else read-only. A mount needs a path that exists, so
// where a guarded entry is missing (or a symbolic link, which a mount
// would follow) nothing could stop the command from creating it: dir
// itself is then bound read-only and its entries, save the guarded ones
// and symbolic links, writable one by one; nothing can be created,
// removed or renamed at its top level.
func writableBinds(dir string, gs []guard, look Look) []string {
	args := []string{"--bind", dir, dir}
	for _, g := range gs {
		if _, ok := look.pinnable(filepath.Join(dir, g.name)); !ok {
			args = []string{"--ro-bind", dir, dir}
			for _, e := range entriesExcept(dir, look.ReadDir, guardNames(gs)...) {
				args = append(args, "--bind", e, e)
			}
			break
		}
	}
	for _, g := range gs {
		p := filepath.Join(dir, g.name)
		switch st, ok := look.pinnable(p); {
		case !ok:
		case st.IsDir() && g.inner != nil:
			args = append(args, writableBinds(p, g.inner, look)...)
		default:
			args = append(args, "--ro-bind", p, p)
		}
	}
	return args
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
