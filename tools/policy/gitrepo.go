package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// embeddedRepo names why git commands (their arguments, gits) must be
// asked about: git would work in a repository that is plain files of the
// workspace rather than its .git, a bare repository (HEAD, objects, refs,
// config) that a clone carries like any other folder. Its config is the
// repository's own (diff.external, core.sshCommand,
// remote.*.uploadpack, core.hooksPath), so an allowed `git diff` run in
// it runs what a stranger wrote. "" when every folder they work in (from
// the line's folder dir or a cd target among bases) finds a .git first,
// or lies outside the workspace (folderAsk and the git options ask about
// those).
func (p *Policy) embeddedRepo(dir string, bases []string, gits [][]string) string {
	seen := map[string]bool{}
	for _, args := range gits {
		for _, base := range bases {
			work := gitWorkDir(base, args)
			if seen[work] {
				continue // git add . && git commit: one walk
			}
			seen[work] = true
			if repo := p.bareRepoAt(dir, work); repo != "" {
				return "asked every time: git would use the repository " + p.roots.Display(repo) +
					", which is files of the workspace, not its .git: that repository's config can run programs"
			}
		}
	}
	return ""
}

// gitWorkDir is the folder git starts from: base, moved by each -C
// option before the subcommand (relative ones chain, as git reads them).
func gitWorkDir(base string, args []string) string {
	d := base
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" && i+1 < len(args):
			i++
			if filepath.IsAbs(args[i]) {
				d = args[i]
			} else {
				d = filepath.Join(d, args[i])
			}
		case !strings.HasPrefix(a, "-"):
			return d
		}
	}
	return d
}

// bareRepoAt finds the repository git discovers from path (relative to
// dir), walking up to the root holding it: "" when a .git comes first or
// the path is outside the roots, else the folder that looks like a bare
// repository.
func (p *Policy) bareRepoAt(dir, path string) string {
	real, err := kernelPathIn(dir, path)
	if err != nil {
		return ""
	}
	root, ok := p.roots.RootOf(real)
	if !ok {
		return ""
	}
	for cur := real; ; cur = filepath.Dir(cur) {
		if _, err := os.Lstat(filepath.Join(cur, ".git")); err == nil {
			return ""
		}
		if looksBare(cur) {
			return cur
		}
		if cur == root || cur == filepath.Dir(cur) {
			return ""
		}
	}
}

// looksBare reports whether dir is a git directory as git's discovery
// tests it: a HEAD file and objects and refs folders.
func looksBare(dir string) bool {
	head, err := os.Stat(filepath.Join(dir, "HEAD"))
	if err != nil || !head.Mode().IsRegular() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(dir, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}
