package checkpoint

import (
	"context"
	"crypto/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// pathsIndexPrefix begins the names of the temporary indexes that
// snapshots of named paths are built in.
const pathsIndexPrefix = "index.paths-"

// pathSnap is a snapshot of some paths: its tree, the files and symlinks
// it holds, and the named paths whose state it could not keep.
type pathSnap struct {
	tree    string
	entries map[string]treeEntry
	skipped []string
}

// saveFiles commits a snapshot of the named paths only. Its cost follows
// those files, whatever the size of the work tree.
func (b *gitBackend) saveFiles(ctx context.Context, label string, named []string) (Checkpoint, error) {
	if err := b.prepare(ctx); err != nil {
		return Checkpoint{}, err
	}
	snap, err := b.snapshotPaths(ctx, named, false)
	if err != nil {
		return Checkpoint{}, err
	}
	return b.commit(ctx, snap.tree, label, gitMeta{Paths: without(named, snap.skipped), Skipped: snap.skipped, Scope: scopePaths}, false)
}

// snapshotPaths hashes the named paths that exist into a fresh temporary
// index and writes it as a tree. A file that could not be read is
// skipped, never taken for absent. The entries are listed when withEntries
// is set (or some file could not be read).
func (b *gitBackend) snapshotPaths(ctx context.Context, named []string, withEntries bool) (pathSnap, error) {
	add, skipped, err := b.forceList(named, nil)
	if err != nil {
		return pathSnap{}, err
	}
	index := filepath.Join(b.r.gitDir, pathsIndexPrefix+rand.Text()[:10])
	defer os.Remove(index)
	complete, err := b.forceAdd(ctx, add, index)
	if err != nil {
		return pathSnap{}, err
	}
	var entries map[string]treeEntry
	if withEntries || !complete {
		if entries, err = b.lsFiles(ctx, index); err != nil {
			return pathSnap{}, err
		}
		for _, p := range add {
			if _, ok := entries[p]; !ok {
				skipped = append(skipped, p)
			}
		}
	}
	slices.Sort(skipped)
	tree, err := b.writeTree(ctx, index)
	return pathSnap{tree: tree, entries: entries, skipped: skipped}, err
}

// lsFiles lists the entries of an index file.
func (b *gitBackend) lsFiles(ctx context.Context, index string) (map[string]treeEntry, error) {
	out, err := b.r.run(ctx, gitCall{args: []string{"ls-files", "-z", "--stage"}, index: index})
	if err != nil {
		return nil, err
	}
	entries := map[string]treeEntry{}
	for _, rec := range nulSplit(out) {
		meta, p, ok := strings.Cut(rec, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 {
			entries[p] = treeEntry{mode: f[0], blob: f[1]}
		}
	}
	return entries, nil
}

// pathGoals walks since (newest first, ending with the target) from the
// target up to the first snapshot of the whole work tree, whose index it
// returns (-1 when there is none). For each path named on the way it
// returns its state as the oldest checkpoint naming it recorded it (nil
// for absent): its state before the agent first changed it. Paths a
// checkpoint could not keep are to be left alone.
func (b *gitBackend) pathGoals(ctx context.Context, since []Checkpoint) (goal map[string]*treeEntry, leave map[string]bool, full int, err error) {
	goal, leave = map[string]*treeEntry{}, map[string]bool{}
	for i := len(since) - 1; i >= 0; i-- {
		cp := since[i]
		if !cp.PathsOnly {
			return goal, leave, i, nil
		}
		for _, p := range cp.Skipped {
			if _, decided := goal[p]; !decided {
				leave[p] = true
			}
		}
		var fresh []string
		for _, p := range cp.Paths {
			if _, decided := goal[p]; !decided && !leave[p] {
				fresh = append(fresh, p)
			}
		}
		entries, err := b.lsTreePaths(ctx, cp.rev, fresh)
		if err != nil {
			return nil, nil, -1, err
		}
		for _, p := range fresh {
			goal[p] = nil
			if e, ok := entries[p]; ok {
				goal[p] = &e
			}
		}
	}
	return goal, leave, -1, nil
}

// restorePaths puts back the paths in goal, when no snapshot of the whole
// work tree was taken since the target: only they are read and written.
// Paths whose current state cannot be kept are left alone, so the undo
// checkpoint, a snapshot of every path the restore changes, is exact.
func (b *gitBackend) restorePaths(ctx context.Context, target Checkpoint, goal map[string]*treeEntry) (Restoration, error) {
	paths := make([]string, 0, len(goal))
	for p := range goal {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	cur, err := b.snapshotPaths(ctx, paths, true)
	if err != nil {
		return Restoration{}, err
	}
	var writes, removes []change
	var planned []string
	for _, p := range paths {
		want := goal[p]
		have, exists := cur.entries[p]
		switch {
		case slices.Contains(cur.skipped, p), want == nil && !exists, want != nil && exists && have == *want:
			continue
		case want == nil:
			removes = append(removes, change{path: p})
		default:
			writes = append(writes, change{path: p, mode: want.mode, blob: want.blob})
		}
		planned = append(planned, p)
	}
	undo, err := b.commit(ctx, cur.tree, RestoreLabelPrefix+target.ID, gitMeta{Paths: planned, Scope: scopePaths}, false)
	if err != nil {
		return Restoration{}, err
	}
	res := Restoration{Target: target, Undo: undo}
	res.Removed, res.Written, err = b.apply(ctx, append(deepestFirst(removes), writes...))
	return res, err
}

// deepestFirst orders removals so that a directory's files go before it.
func deepestFirst(removes []change) []change {
	slices.SortFunc(removes, func(x, y change) int {
		return strings.Count(y.path, "/") - strings.Count(x.path, "/")
	})
	return removes
}

// lsTreePaths lists the files of rev's tree among paths.
func (b *gitBackend) lsTreePaths(ctx context.Context, rev string, paths []string) (map[string]treeEntry, error) {
	if len(paths) == 0 {
		return map[string]treeEntry{}, nil
	}
	args := []string{"ls-tree", "-r", "-z", "--full-tree", rev}
	if len(paths) <= maxPathArgs {
		args = append(append(args, "--"), paths...)
	}
	entries, err := b.lsTree(ctx, args)
	if err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	for p := range entries {
		if !want[p] {
			delete(entries, p)
		}
	}
	return entries, nil
}

// maxPathArgs is the most paths passed to git on its command line; with
// more, the whole tree is listed and filtered.
const maxPathArgs = 500
