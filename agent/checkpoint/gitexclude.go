package checkpoint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// excludeUntracked rewrites the shadow repository's info/exclude so that
// `git add --all` leaves out untracked files larger than the size limit and
// nested repositories (directories with their own .git, which git would
// otherwise record as unusable gitlinks). Listed with only the project's
// .gitignore files applied, the excluded set is recomputed on every save:
// a big file that shrinks or goes away stops being excluded. Files already
// in the snapshot stay in it whatever their size. It returns the excluded
// paths (directories with a trailing slash), which the checkpoint records:
// a restore leaves them alone, as their state is unknown; and the other
// untracked paths the listing found, which addAll adds.
func (b *gitBackend) excludeUntracked(ctx context.Context) (excluded, untracked []string, err error) {
	out, err := b.r.run(ctx, gitCall{args: []string{"ls-files", "-z", "--others", "--exclude-per-directory=.gitignore"}})
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	buf.WriteString("# written by companion's checkpoint store on every snapshot\n")
	for _, p := range nulSplit(out) {
		if !b.excluded(p) {
			untracked = append(untracked, p)
			continue
		}
		if strings.ContainsAny(p, "\n\r") {
			b.log.Warn("checkpoint: cannot exclude a path with a newline", "path", p)
			untracked = append(untracked, p) // git add --all takes it
			continue
		}
		buf.WriteString("/" + escapeGlob(p) + "\n")
		excluded = append(excluded, p)
	}
	file := filepath.Join(b.r.gitDir, "info", "exclude")
	if old, err := os.ReadFile(file); err == nil && bytes.Equal(old, buf.Bytes()) {
		return excluded, untracked, nil
	}
	return excluded, untracked, writeFileAtomic(file, buf.Bytes())
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
