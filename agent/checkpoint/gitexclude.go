package checkpoint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// splitExcluded sorts the untracked paths worktreeChanges listed into
// those left out of snapshots (untracked files larger than the size limit,
// and nested repositories: directories with their own .git, which git
// would otherwise record as unusable gitlinks) and those to add. The set is
// recomputed on every save, from a listing that applies only the
// project's ignore rules: a big file that shrinks or goes away stops being
// excluded. Files already in the snapshot stay in it whatever their size.
// The excluded paths (directories with a trailing slash) are recorded in
// the checkpoint: a restore leaves them alone, as their state is unknown.
func (b *gitBackend) splitExcluded(listed []string) (excluded, untracked []string) {
	for _, p := range listed {
		if b.excluded(p) {
			excluded = append(excluded, p)
		} else {
			untracked = append(untracked, p)
		}
	}
	return excluded, untracked
}

// excludedBy reports whether p is one of excluded or lies in one of its
// directories.
func excludedBy(excluded []string, p string) bool {
	return slices.Contains(excluded, p) || inDirs(excluded, p)
}

// excluded reports whether the untracked path p (as listed by ls-files) is
// left out of snapshots.
func (b *gitBackend) excluded(p string) bool {
	if strings.HasSuffix(p, "/") {
		b.log.Debug("checkpoint: leaving out a nested repository", "path", p)
		return true
	}
	if b.max <= 0 {
		return false
	}
	fi, err := os.Lstat(filepath.Join(b.r.workTree, filepath.FromSlash(p)))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() <= b.max {
		return false
	}
	b.log.Info("checkpoint: leaving out a large untracked file", "path", p, "bytes", fi.Size())
	return true
}

// escapeGlob makes p match itself literally as a gitignore pattern.
func escapeGlob(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`\*?[]! #`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// writeFileAtomic writes a file of the store's own (outside the project)
// through a synced temporary file and a rename.
func writeFileAtomic(name string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), name)
}
