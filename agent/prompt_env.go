package agent

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"companion/agent/checkpoint"
)

// osName is the operating system and architecture, as Go names them.
func osName() string { return runtime.GOOS + "/" + runtime.GOARCH }

// gitBranch reports whether dir is inside a git repository and its
// branch: the name HEAD points to, or "HEAD" when it is detached. It reads
// the repository's files rather than running git, which may be missing.
func gitBranch(dir string) (bool, string) {
	for d := dir; ; {
		gitDir, ok := checkpoint.GitDirOf(filepath.Join(d, ".git"))
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
