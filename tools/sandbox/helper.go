package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// HelperCommand is the hidden subcommand of companion that runs the
// Landlock helper (RunHelper). main dispatches to it before anything else;
// a test binary whose tests need the Landlock backend dispatches it in
// TestMain and sets Sandbox.Helper.
const HelperCommand = "__sandbox"

// helperSpec is what the Landlock helper confines a command to.
type helperSpec struct {
	Mode    Mode
	Network bool
	// Roots are the session roots (real, absolute paths), writable in
	// WorkspaceWrite.
	Roots []string
}

// helperArgs is the command line that runs argv under the Landlock helper
// exe: `exe __sandbox MODE net=on|off ROOT... -- ARGV...`.
func helperArgs(exe string, sp helperSpec, argv []string) []string {
	net := "net=off"
	if sp.Network {
		net = "net=on"
	}
	args := append([]string{exe, HelperCommand, string(sp.Mode), net}, sp.Roots...)
	return append(append(args, "--"), argv...)
}

// parseHelperArgs reads the helper's arguments (those after
// HelperCommand): the spec and the command to run.
func parseHelperArgs(args []string) (helperSpec, []string, error) {
	sep := slices.Index(args, "--")
	if sep < 2 || sep == len(args)-1 {
		return helperSpec{}, nil, errors.New("usage: __sandbox MODE net=on|off [ROOT...] -- COMMAND [ARG...]")
	}
	sp := helperSpec{Mode: Mode(args[0]), Roots: args[2:sep]}
	if !sp.Mode.Sandboxed() {
		return helperSpec{}, nil, fmt.Errorf("%w %q", ErrUnknownMode, args[0])
	}
	switch args[1] {
	case "net=on":
		sp.Network = true
	case "net=off":
	default:
		return helperSpec{}, nil, fmt.Errorf("network must be net=on or net=off, not %q", args[1])
	}
	for _, r := range sp.Roots {
		if !filepath.IsAbs(r) {
			return helperSpec{}, nil, fmt.Errorf("root %q is not absolute", r)
		}
	}
	return sp, args[sep+1:], nil
}

// planWrites returns the hierarchies a Landlock-confined command may
// write in mode m, beside its private temporary folder and the null-like
// devices. Landlock rights hold for a whole hierarchy and cannot be taken
// back below, so a root holding .git or .companion is not granted whole:
// its entries are, save .git and .companion, and .git's entries save hooks
// and config; nothing is granted on the root itself or on .git (a right to
// create, remove or rename there would reach the protected paths too).
// Symbolic links among those entries are skipped: a rule would follow them
// out of the root. lstat and readDir are os.Lstat and os.ReadDir, injected
// for tests.
func planWrites(m Mode, roots []string, lstat func(string) (fs.FileInfo, error), readDir func(string) ([]fs.DirEntry, error)) []string {
	var full []string
	if m != WorkspaceWrite {
		return nil
	}
	for _, r := range roots {
		if !holdsProtected(r, lstat) {
			full = append(full, r)
			continue
		}
		full = append(full, entriesExcept(r, readDir, ".git", ".companion")...)
		if st, err := lstat(filepath.Join(r, ".git")); err == nil && st.IsDir() {
			full = append(full, entriesExcept(filepath.Join(r, ".git"), readDir, "hooks", "config")...)
		}
	}
	return full
}

// holdsProtected reports whether root has an entry a protected path
// starts with.
func holdsProtected(root string, lstat func(string) (fs.FileInfo, error)) bool {
	for _, p := range protected {
		top, _, _ := strings.Cut(p, "/")
		if _, err := lstat(filepath.Join(root, top)); err == nil {
			return true
		}
	}
	return false
}

// entriesExcept lists dir's entries, save the names skipped and symbolic
// links, as paths.
func entriesExcept(dir string, readDir func(string) ([]fs.DirEntry, error), skip ...string) []string {
	ents, _ := readDir(dir)
	var out []string
	for _, e := range ents {
		if slices.Contains(skip, e.Name()) || e.Type()&fs.ModeSymlink != 0 {
			continue
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	return out
}
