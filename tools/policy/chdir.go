package policy

import (
	"path/filepath"
	"strings"

	"companion/tools"
)

// folderAsk names why a shell line must be asked about for where its
// commands work. A cd out of the workspace, or to a folder only known when
// it runs (cd "$x", cd -, popd): the commands after it work there, where
// an allowed `git status` reads that folder's git config and runs what it
// names. Else git working in a repository that is files of the workspace
// (embeddedRepo). One pass over the commands serves both.
func (p *Policy) folderAsk(c Call) string {
	conf := c.Confirm
	if conf.Type != tools.ConfirmExec {
		return ""
	}
	dir := c.workDir()
	bases, moved := []string{dir}, false
	var gits [][]string
	for _, cmd := range conf.Commands {
		if len(cmd.Words) == 0 {
			continue
		}
		switch filepath.Base(cmd.Words[0]) {
		case "cd", "pushd":
			// After one cd, a relative folder is relative to wherever
			// that one led, which is not tracked.
			target, ok := chdirTarget(cmd.Words[1:])
			if !ok || (moved && !filepath.IsAbs(target)) || !p.insideRoots(dir, target) {
				return "asked every time: the line changes to a folder outside the workspace (or one known only when it runs), where the commands after it work"
			}
			moved = true
			bases = append(bases, target)
		case "popd":
			return "asked every time: popd returns to a folder known only when the line runs"
		case "git":
			gits = append(gits, cmd.Words[1:])
		}
	}
	return p.embeddedRepo(dir, bases, gits)
}

// chdirTarget is the folder cd or pushd moves to, false when it is only
// known at run time (an expansion, cd -, the home folder, pushd +N).
func chdirTarget(args []string) (string, bool) {
	for i, a := range args {
		switch {
		case a == "--":
			if i+1 < len(args) {
				return literalDir(args[i+1])
			}
			return "", false
		case a == "-" || strings.HasPrefix(a, "+"):
			return "", false
		case strings.HasPrefix(a, "-") && len(a) > 1:
			continue // -L, -P, -e, -@, -n
		default:
			return literalDir(a)
		}
	}
	return "", false // no folder: the home folder
}

// literalDir is a folder named by a plain word.
func literalDir(w string) (string, bool) {
	if w == "" || strings.ContainsAny(w, "$`~*?[") {
		return "", false
	}
	return w, true
}

// insideRoots reports whether path, from dir, resolves (as the kernel
// will) inside a root.
func (p *Policy) insideRoots(dir, path string) bool {
	real, err := kernelPathIn(dir, path)
	return err == nil && p.roots.Contains(real)
}
