package checkpoint

import (
	"context"
	"crypto/rand"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Bounds of the changes a whole-tree snapshot builds on the recorded
// tree instead of the shadow index (stageOnTree; gitBackend.maxDrift is
// the first). Past them the changes are folded into the index once
// (update-index, write-tree), which rewrites the index but makes the
// following snapshots cheap again.
const (
	maxDriftPaths = 1000
	maxDriftBytes = 32 << 20
)

// stage snapshots the work tree (honouring .gitignore and leaving out
// large untracked files and nested repositories) plus the named paths,
// even when ignored, and returns the tree. One `git status` of the
// shadow repository lists what differs from the shadow index. When the
// tree of the index's entries is recorded (see treeFile), the snapshot is
// that tree with those paths edited (stageOnTree): neither the index nor
// any directory the changes do not touch is read or written. Otherwise,
// or with fold, or when the changes are many, they go into the index
// (update-index) and the index is written as a tree, which is recorded.
func (b *gitBackend) stage(ctx context.Context, named []string, fold bool) (st staged, err error) {
	b.seedIfStale(ctx)
	rec, recorded := b.validRecord()
	changed, listed, err := b.worktreeChanges(ctx)
	if err != nil {
		return st, err
	}
	if recorded {
		b.followStatus(rec)
	}
	excluded, listed := b.splitExcluded(listed)
	add, skipped, err := b.forceList(named, excluded)
	if err != nil {
		return st, err
	}
	st.skipped, st.excluded = skipped, without(excluded, add)
	if recorded && !fold {
		tree, ok, err := b.stageOnTree(ctx, rec.tree, append(changed, listed...), add)
		if err != nil || ok {
			st.tree = tree
			return st, err
		}
	}
	if err := b.addAll(ctx, changed, listed, excluded); err != nil {
		return st, err
	}
	if _, err := b.forceAdd(ctx, add, ""); err != nil {
		return st, err
	}
	st.tree, err = b.indexTree(ctx)
	st.indexed = err == nil
	return st, err
}

// stageOnTree returns the tree base (that of the shadow index's entries)
// with the paths that differ from the index (drift, from the status) and
// the named files (add) as they are now: files and symlinks hashed into
// a temporary index, the rest removed. ok is false when the index should
// take the changes instead: there are many, one is neither a file, a
// symlink, a directory nor absent, or one could not be read. A named
// file base lacks that the status did not list (ignored) is added to the
// shadow index too, as a snapshot built from it would keep it.
func (b *gitBackend) stageOnTree(ctx context.Context, base string, drift, add []string) (tree string, ok bool, err error) {
	paths := slices.Concat(drift, add)
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if len(paths) > b.maxDrift {
		return "", false, nil
	}
	var hash []string
	var edits []change
	var size int64
	infos := map[string]fs.FileInfo{}
	for _, p := range paths {
		fi, err := os.Lstat(filepath.Join(b.r.workTree, filepath.FromSlash(p)))
		switch {
		case err == nil && (fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0) && plainParents(b.r.workTree, p):
			hash = append(hash, p)
			infos[p] = fi
			size += fi.Size()
		case err == nil && !fi.IsDir() && plainParents(b.r.workTree, p), err != nil && !isAbsent(err):
			return "", false, nil
		default: // absent, a directory, or beyond a symlink: no file here
			edits = append(edits, change{path: p})
		}
	}
	if size > maxDriftBytes {
		return "", false, nil
	}
	entries, complete, err := b.hashRegular(ctx, hash, infos)
	if err == nil && entries == nil {
		entries, complete, err = b.hashFiles(ctx, hash)
	}
	if err != nil || !complete {
		return "", false, err
	}
	for _, p := range hash {
		e, ok := entries[p]
		if !ok {
			return "", false, nil
		}
		edits = append(edits, change{path: p, mode: e.mode, blob: e.blob})
	}
	tree, added, err := b.editTree(ctx, base, edits)
	if err != nil {
		if ctx.Err() != nil {
			return "", false, err
		}
		b.log.Info("checkpoint: cannot build the snapshot on the last tree; updating the index", "err", err)
		return "", false, nil
	}
	return tree, true, b.track(ctx, without(added, drift))
}

// track adds force-added files (named paths the index lacked, ignored or
// large) to the shadow index, so that later whole-tree snapshots keep
// them as they keep every file once taken. The index's entries change,
// so its recorded tree no longer holds (validRecord).
func (b *gitBackend) track(ctx context.Context, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	b.log.Debug("checkpoint: keeping force-added files in the snapshot index", "paths", len(paths))
	_, err := b.forceAdd(ctx, paths, "")
	return err
}

// hashFiles writes the blobs of the files and symlinks paths to the
// shadow store (through a fresh temporary index) and returns their
// entries. complete is false when some could not be read.
func (b *gitBackend) hashFiles(ctx context.Context, paths []string) (entries map[string]treeEntry, complete bool, err error) {
	if len(paths) == 0 {
		return map[string]treeEntry{}, true, nil
	}
	index := filepath.Join(b.r.gitDir, pathsIndexPrefix+rand.Text()[:10])
	defer os.Remove(index)
	if complete, err = b.forceAdd(ctx, paths, index); err != nil {
		return nil, false, err
	}
	entries, err = b.lsFiles(ctx, index)
	return entries, complete, err
}

// hashRegular writes the blobs of paths to the shadow store with one
// `git hash-object`, when they are all regular files and the shadow
// repository trusts the executable bit (core.fileMode, as git init set
// it): their modes come from infos, as git add takes them. entries is nil
// when that does not apply (hashFiles does the work), complete false when
// some file could not be read.
func (b *gitBackend) hashRegular(ctx context.Context, paths []string, infos map[string]fs.FileInfo) (entries map[string]treeEntry, complete bool, err error) {
	if runtime.GOOS == "windows" || !b.trustsExecBit() {
		return nil, false, nil
	}
	for _, p := range paths {
		if !infos[p].Mode().IsRegular() || strings.ContainsAny(p, "\n\r") {
			return nil, false, nil
		}
	}
	call := gitCall{args: []string{"hash-object", "-w", "--no-filters", "--stdin-paths"},
		stdin: strings.NewReader(strings.Join(paths, "\n") + "\n"), ownStore: true}
	out, err := b.r.run(ctx, call)
	if err != nil {
		if ctx.Err() != nil {
			return nil, false, err
		}
		b.log.Warn("checkpoint: some files could not be read into the snapshot", "err", err)
		return map[string]treeEntry{}, false, nil
	}
	ids := strings.Fields(string(out))
	if len(ids) != len(paths) {
		return map[string]treeEntry{}, false, nil
	}
	entries = make(map[string]treeEntry, len(paths))
	for i, p := range paths {
		mode := "100644"
		if infos[p].Mode()&0o100 != 0 {
			mode = "100755"
		}
		entries[p] = treeEntry{mode: mode, blob: ids[i]}
	}
	return entries, true, nil
}

// trustsExecBit reports whether the shadow repository's configuration
// keeps core.fileMode on (git init turns it off where the file system
// does not keep the executable bit; git then records files as 100644).
func (b *gitBackend) trustsExecBit() bool {
	data, err := os.ReadFile(filepath.Join(b.r.gitDir, "config"))
	if err != nil {
		return false
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		key, value, ok := strings.Cut(strings.ToLower(strings.Join(strings.Fields(line), "")), "=")
		if ok && key == "filemode" {
			return value == "true"
		}
	}
	return false
}
