package agent

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// osName is the operating system and architecture, as Go names them.
func osName() string { return runtime.GOOS + "/" + runtime.GOARCH }

// gitBranch reports whether dir is inside a git repository and its
// branch: the name HEAD points to, or "HEAD" when it is detached. It reads
// the repository's files rather than running git, which may be missing.
func gitBranch(dir string) (bool, string) {
	for d := dir; ; {
		gitDir, ok := gitDirOf(filepath.Join(d, ".git"))
		if ok {
			head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
			if err != nil {
				return true, "HEAD"
			}
			ref, isRef := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: ")
			if !isRef {
				return true, "HEAD"
			}
			return true, strings.TrimPrefix(ref, "refs/heads/")
		}
		parent := filepath.Dir(d)
		if parent == d {
			return false, ""
		}
		d = parent
	}
}

// gitDirOf returns the git directory a .git entry stands for: the
// directory itself, or the one a "gitdir:" file names (worktrees,
// submodules).
func gitDirOf(dotGit string) (string, bool) {
	fi, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return "", false
	case fi.IsDir():
		return dotGit, true
	}
	data, err := os.ReadFile(dotGit)
	if err != nil {
		return "", false
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(dotGit), target)
	}
	return target, true
}
