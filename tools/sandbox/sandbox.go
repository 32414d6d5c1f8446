package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// SettingsMode is the mode a settings value names. Settings are checked
// when loaded; a value that still does not parse is the strictest mode
// that runs commands (read-only), never off.
func SettingsMode(s string) Mode {
	m, err := ParseMode(s)
	if err != nil {
		return ReadOnly
	}
	return m
}

// Sandboxed reports whether m wraps commands.
func (m Mode) Sandboxed() bool { return m == ReadOnly || m == WorkspaceWrite }

// protected are the paths inside a writable root that stay read-only,
// whether they exist or not: a command that could write them (or rename,
// remove or create them, or the .git entry itself) would run code outside
// the sandbox the next time the user runs git or companion. Seatbelt
// denies them by path; bwrap and Landlock walk guarded.
var protected = []string{".git", ".git/hooks", ".git/config", ".git/commondir", ".git/index", ".git/modules", ".git/worktrees", ".companion"}

// guard is an entry of a writable folder that a command may not write,
// rename, remove, replace or create.
type guard struct {
	name string
	// inner are the entries of a guarded folder that stay read-only while
	// the rest of it stays writable; nil makes all of it read-only.
	inner []guard
}

// guarded are the entries a session root guards: .git, writable inside
// save what makes git run code or read a config (hooks, config, commondir,
// which points git at another config, the index, where a submodule is
// registered, and the submodules' and linked worktrees' own folders), and
// .companion, read-only. commondir is missing in an ordinary repository,
// so under bubblewrap and Landlock nothing can be created, removed or
// renamed at the top of .git either (see writableBinds): git commands that
// only read work, those that write the index or a lock file there do not.
var guarded = []guard{
	{".git", []guard{{"hooks", nil}, {"config", nil}, {"commondir", nil}, {"index", nil}, {"modules", nil}, {"worktrees", nil}}},
	{".companion", nil},
}

// guardNames are the names of gs.
func guardNames(gs []guard) []string {
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.name
	}
	return names
}

// Look is how the sandbox reads the folders it confines a command to:
// os.Lstat and os.ReadDir, or fakes in tests.
type Look struct {
	Lstat   func(string) (fs.FileInfo, error)
	ReadDir func(string) ([]fs.DirEntry, error)
}

// osLook is the real file system.
var osLook = Look{Lstat: os.Lstat, ReadDir: os.ReadDir}

// pinnable reports whether path is a folder or a file, which a bind mount
// can pin (a mount point is neither renamed nor removed); a path that is
// missing, a symbolic link or anything else cannot be.
func (l Look) pinnable(path string) (fs.FileInfo, bool) {
	st, err := l.Lstat(path)
	if err != nil {
		return nil, false
	}
	return st, st.IsDir() || st.Mode().IsRegular()
}

// Backend names the engine that confines commands.
type Backend string

// The backends.
const (
	// Bwrap is bubblewrap: mount, network and pid namespaces (Linux).
	Bwrap Backend = "bwrap"
	// Landlock is the Linux fallback: companion re-executed as
	// `companion __sandbox` confines itself with Landlock and a seccomp
	// filter, then executes the command (see RunHelper).
	Landlock Backend = "landlock"
	// Seatbelt is macOS's sandbox-exec with a generated profile.
	Seatbelt Backend = "seatbelt"
	// None is no backend: the sandbox is off, or none can run here.
	None Backend = "none"
)

// BackendEnv names the environment variable that forces a backend
// ("bwrap" or "landlock") instead of the first that works. It is read
// from companion's own environment, never from settings files, so a
// project cannot choose a weaker sandbox for itself.
const BackendEnv = "COMPANION_SANDBOX_BACKEND"

// BackendInfo says which backend confines commands and why.
type BackendInfo struct {
	// Name is the backend in use, or None.
	Name Backend
	// Why is why it was picked, or why none can run.
	Why string
}

// WrapOpts are per-command choices for WrapWith.
type WrapOpts struct {
	// Network lets this one command reach the network even when the
	// sandbox's Network is off (an MCP server or hook configured so, or a
	// user's answer for one command).
	Network bool
}

// Sandbox wraps commands in one mode. Its zero value is Off.
type Sandbox struct {
	Mode    Mode
	Network bool
	// Force, when set, is the only backend tried (see BackendEnv).
	Force Backend
	// Helper is the executable the Landlock backend re-executes as
	// `Helper __sandbox ...`; empty means the running executable, unless
	// it is a test binary (which may not dispatch RunHelper).
	Helper string
	// Prober, when set, picks the backend, once for every sandbox that
	// shares it; nil probes for this sandbox alone.
	Prober *Prober

	// once guards eng, info and err: the choice of a backend, asked of
	// Prober at the first wrapped command (or the first question about it).
	once sync.Once
	eng  engine
	info BackendInfo
	err  error
}

// engine is the chosen backend and the program it runs.
type engine struct {
	backend Backend
	// path is bwrap, the helper executable or sandbox-exec.
	path string
}

// New returns a sandbox for mode m, with network when network is set.
// The backend is forced when companion's environment sets BackendEnv.
func New(m Mode, network bool) *Sandbox {
	return &Sandbox{Mode: m, Network: network, Force: Backend(strings.TrimSpace(os.Getenv(BackendEnv)))}
}

// Active reports whether s wraps commands; a nil Sandbox is off.
func (s *Sandbox) Active() bool { return s != nil && s.Mode.Sandboxed() }

// Available reports why the sandbox cannot run commands here, or nil. It
// asks for the backend once (of Prober, which may have answered another
// sandbox already): bubblewrap when it can create its namespaces, else
// Landlock when the kernel has it (Linux); Seatbelt on macOS.
func (s *Sandbox) Available() error {
	s.once.Do(func() {
		r, err := s.Prober.Probe(s.Force, s.Helper)
		s.eng, s.info, s.err = engine{backend: r.Name, path: r.Path}, r.BackendInfo, err
	})
	return s.err
}

// Backend says which backend confines commands and why, or why none
// does. An off sandbox has none and runs no check.
func (s *Sandbox) Backend() BackendInfo {
	if !s.Active() {
		return BackendInfo{Name: None, Why: "the sandbox is off"}
	}
	if err := s.Available(); err != nil {
		return BackendInfo{Name: None, Why: err.Error()}
	}
	return s.info
}

// Wrap returns argv to run under the sandbox with roots writable
// (workspace-write), or argv itself when s is nil or Off. It fails when
// the mode is sandboxed and no backend can run here.
func (s *Sandbox) Wrap(roots, argv []string) ([]string, error) {
	return s.WrapWith(roots, argv, WrapOpts{})
}

// WrapWith is Wrap with per-command options.
func (s *Sandbox) WrapWith(roots, argv []string, o WrapOpts) ([]string, error) {
	if !s.Active() {
		return argv, nil
	}
	if err := s.Available(); err != nil {
		return nil, err
	}
	network := s.Network || o.Network
	real := realRoots(roots)
	switch s.eng.backend {
	case Bwrap:
		if s.Mode == WorkspaceWrite {
			for _, r := range real {
				ensureGuarded(r)
			}
		}
		return append([]string{s.eng.path}, Args(s.Mode, network, real, osLook, argv)...), nil
	case Landlock:
		return helperArgs(s.eng.path, helperSpec{Mode: s.Mode, Network: network, Roots: real}, argv), nil
	case Seatbelt:
		return seatbeltArgv(s.eng.path, s.Mode, network, real, argv)
	}
	return nil, fmt.Errorf("no sandbox backend")
}

// realRoots resolves roots' symbolic links, dropping those that do not
// resolve: a backend confines real paths.
func realRoots(roots []string) []string {
	real := make([]string, 0, len(roots))
	for _, r := range roots {
		if p, err := filepath.EvalSymlinks(r); err == nil {
			real = append(real, p)
		}
	}
	return real
}

// ensureGuarded creates, in a repository root, the guarded paths that
// bubblewrap can only pin where they exist: .git/hooks and an empty
// .git/config (as git init would) and an empty .companion, so that the
// root keeps a writable top level (see Args). A folder without .git gets
// nothing: its top level is read-only whatever exists. Best effort: what
// cannot be made leaves its folder's top level read-only.
func ensureGuarded(root string) {
	git := filepath.Join(root, ".git")
	st, ok := osLook.pinnable(git)
	if !ok {
		return
	}
	if st.IsDir() {
		_ = os.Mkdir(filepath.Join(git, "hooks"), 0o755)
		if f, err := os.OpenFile(filepath.Join(git, "config"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
			_ = f.Close()
		}
	}
	_ = os.Mkdir(filepath.Join(root, ".companion"), 0o755)
}
