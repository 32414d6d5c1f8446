package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
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
// back below, and a right to create, remove or rename in a folder holds
// for every name in it: so a root is never granted whole (its .git or
// .companion could be renamed, replaced or created), only its entries that
// exist, save .git and .companion, and .git's entries save hooks and
// config (writableEntries). Symbolic links among those entries are
// skipped: a rule would follow them out of the root.
func planWrites(m Mode, roots []string, look Look) []string {
	if m != WorkspaceWrite {
		return nil
	}
	var full []string
	for _, r := range roots {
		full = append(full, writableEntries(r, guarded, look)...)
	}
	return full
}

// writableEntries are dir's entries save the guarded ones gs and symbolic
// links, and those of each guarded folder with inner guards, in turn.
func writableEntries(dir string, gs []guard, look Look) []string {
	out := entriesExcept(dir, look.ReadDir, guardNames(gs)...)
	for _, g := range gs {
		p := filepath.Join(dir, g.name)
		if st, err := look.Lstat(p); err == nil && st.IsDir() && g.inner != nil {
			out = append(out, writableEntries(p, g.inner, look)...)
		}
	}
	return out
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
