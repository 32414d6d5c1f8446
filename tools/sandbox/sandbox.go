package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Mode is how much a sandboxed command may write.
type Mode string

// The modes.
const (
	// Off runs commands as they are (the default).
	Off Mode = "off"
	// ReadOnly lets a command read the machine and write only a private
	// /tmp.
	ReadOnly Mode = "read-only"
	// WorkspaceWrite is ReadOnly plus write access to the session roots,
	// save their .git/hooks, .git/config and .companion.
	WorkspaceWrite Mode = "workspace-write"
)

// checkTimeout bounds the one-time check that bwrap works.
const checkTimeout = 5 * time.Second

// ErrUnknownMode is a mode name that is none of the modes.
var ErrUnknownMode = errors.New("unknown sandbox mode")

// ParseMode reads a mode name; "" is Off.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(strings.TrimSpace(s)); m {
	case "":
		return Off, nil
	case Off, ReadOnly, WorkspaceWrite:
		return m, nil
	}
	return Off, fmt.Errorf("%w %q: use off, read-only or workspace-write", ErrUnknownMode, s)
}

// Sandboxed reports whether m wraps commands.
func (m Mode) Sandboxed() bool { return m == ReadOnly || m == WorkspaceWrite }

// protected are the paths inside a writable root that stay read-only: a
// command that could write them would run code outside the sandbox the
// next time the user runs git or companion.
var protected = []string{".git/hooks", ".git/config", ".companion"}

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

// Sandbox wraps commands in one mode. Its zero value is Off.
type Sandbox struct {
	Mode    Mode
	Network bool

	// once guards bwrap and err: the check that bwrap runs here, done at
	// the first wrapped command.
	once  sync.Once
	bwrap string
	err   error
}

// New returns a sandbox for mode m, with network when network is set.
func New(m Mode, network bool) *Sandbox { return &Sandbox{Mode: m, Network: network} }

// Active reports whether s wraps commands; a nil Sandbox is off.
func (s *Sandbox) Active() bool { return s != nil && s.Mode.Sandboxed() }

// Available reports why the sandbox cannot run commands here, or nil. It
// checks once, by running bwrap --ro-bind / / true.
func (s *Sandbox) Available() error {
	s.once.Do(func() { s.bwrap, s.err = check() })
	return s.err
}

func check() (string, error) {
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

// Wrap returns argv to run under the sandbox with roots writable
// (workspace-write), or argv itself when s is nil or Off. It fails when
// the mode is sandboxed and bwrap cannot run here.
func (s *Sandbox) Wrap(roots, argv []string) ([]string, error) {
	if !s.Active() {
		return argv, nil
	}
	if err := s.Available(); err != nil {
		return nil, err
	}
	real := make([]string, 0, len(roots))
	for _, r := range roots {
		if p, err := filepath.EvalSymlinks(r); err == nil {
			real = append(real, p)
			if s.Mode == WorkspaceWrite {
				ensureHooks(p)
			}
		}
	}
	args := Args(s.Mode, s.Network, real, exists, argv)
	return append([]string{s.bwrap}, args...), nil
}

// ensureHooks creates a repository's missing .git/hooks (empty, as git
// init would), so that it exists to be bound read-only: else a sandboxed
// command could create it and plant a hook that runs outside the sandbox.
func ensureHooks(root string) {
	if st, err := os.Stat(filepath.Join(root, ".git")); err == nil && st.IsDir() {
		_ = os.Mkdir(filepath.Join(root, ".git", "hooks"), 0o755)
	}
}

// exists reports whether path names something (following symlinks).
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// blockedSigns are what commands print when the sandbox stopped them: a
// write to a read-only mount, or no network.
var blockedSigns = []string{"Read-only file system", "Network is unreachable", "Could not resolve host",
	"Temporary failure in name resolution", "Name or service not known", "Couldn't connect to server"}

// Note is the line to add to the result of a command that failed with
// output, when the output shows the sandbox stopped it; "" otherwise.
func (s *Sandbox) Note(failed bool, output string) string {
	if !s.Active() || !failed {
		return ""
	}
	for _, sign := range blockedSigns {
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
	return fmt.Sprintf("The command ran in the %s sandbox: writes outside %s are blocked%s.", s.Mode, where, net)
}
