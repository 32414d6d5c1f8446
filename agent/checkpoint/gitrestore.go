package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// change is one path a restore writes (mode and blob set) or removes.
type change struct {
	path string
	mode string // "100644", "100755" or "120000"; "" to remove
	blob string
}

// treeEntry is a file of a snapshot tree.
type treeEntry struct {
	mode, blob string
}

// restore puts the work tree back as it was at target; since are the git
// checkpoints from the newest down to target.
func (b *gitBackend) restore(ctx context.Context, target Checkpoint, since []Checkpoint) (Restoration, error) {
	if err := b.prepare(ctx); err != nil {
		return Restoration{}, err
	}
	current, err := b.stage(ctx, namedPaths(since))
	if err != nil {
		return Restoration{}, err
	}
	goal, absent, err := b.goalTree(ctx, target, since)
	if err != nil {
		return Restoration{}, err
	}
	plan, err := b.plan(ctx, current, goal, absent, target.excluded)
	if err != nil {
		return Restoration{}, err
	}
	undo, err := b.saveUndo(ctx, target, plan, current.excluded)
	if err != nil {
		return Restoration{}, err
	}
	res := Restoration{Target: target, Undo: undo}
	res.Removed, res.Written, err = b.apply(ctx, plan)
	return res, err
}

// goalTree returns the tree to restore and the paths known to have been
// absent. It is target's tree, completed for ignored paths that target does
// not hold but a newer checkpoint named: the oldest such checkpoint tells
// their state before the changes since target (content, or absent).
func (b *gitBackend) goalTree(ctx context.Context, target Checkpoint, since []Checkpoint) (string, map[string]bool, error) {
	entries, err := b.lsTree(ctx, target.rev)
	if err != nil {
		return "", nil, err
	}
	absent := map[string]bool{}
	for _, p := range target.Paths {
		if _, ok := entries[p]; !ok {
			absent[p] = true
		}
	}
	extra, err := b.ignoredExtras(ctx, entries, target, since)
	if err != nil || len(extra) == 0 {
		return target.rev + "^{tree}", absent, err
	}
	var info strings.Builder
	for i := len(since) - 2; i >= 0; i-- {
		cp, decided := since[i], []string{}
		for _, p := range cp.Paths {
			if extra[p] {
				decided = append(decided, p)
			}
		}
		if len(decided) == 0 {
			continue
		}
		cpEntries, err := b.lsTree(ctx, cp.rev)
		if err != nil {
			return "", nil, err
		}
		for _, p := range decided {
			delete(extra, p)
			if e, ok := cpEntries[p]; ok {
				fmt.Fprintf(&info, "%s %s\t%s\x00", e.mode, e.blob, p)
			} else {
				absent[p] = true
			}
		}
	}
	if info.Len() == 0 {
		return target.rev + "^{tree}", absent, nil
	}
	tree, err := b.amendTree(ctx, target.rev, info.String())
	return tree, absent, err
}

// ignoredExtras returns the paths named by checkpoints newer than target
// that target neither holds nor names and that are ignored now.
func (b *gitBackend) ignoredExtras(ctx context.Context, entries map[string]treeEntry, target Checkpoint, since []Checkpoint) (map[string]bool, error) {
	seen := map[string]bool{}
	for _, p := range target.Paths {
		seen[p] = true
	}
	var cand []string
	for _, cp := range since[:len(since)-1] {
		for _, p := range cp.Paths {
			if _, held := entries[p]; !held && !seen[p] {
				seen[p] = true
				cand = append(cand, p)
			}
		}
	}
	return b.ignored(ctx, cand)
}

// amendTree writes the tree of rev with the index-info entries added, using
// a temporary index.
func (b *gitBackend) amendTree(ctx context.Context, rev, info string) (string, error) {
	index := filepath.Join(b.r.gitDir, "index.restore")
	defer os.Remove(index)
	if _, err := b.r.run(ctx, gitCall{args: []string{"read-tree", rev}, index: index}); err != nil {
		return "", err
	}
	call := gitCall{args: []string{"update-index", "-z", "--index-info"}, stdin: strings.NewReader(info), index: index}
	if _, err := b.r.run(ctx, call); err != nil {
		return "", err
	}
	return b.writeTree(ctx, index)
}

// plan lists the changes from the current tree to goal: writes for added,
// modified and retyped files, removals for files goal lacks unless they are
// ignored or were left out of the target (excluded) and are not known to
// have been absent. Nested repositories (gitlinks, or directories now
// holding a .git) are never touched. Removals come first, deepest first.
func (b *gitBackend) plan(ctx context.Context, current staged, goal string, absent map[string]bool, excluded []string) ([]change, error) {
	out, err := b.r.run(ctx, gitCall{args: []string{"diff-tree", "-r", "-z", "--no-renames", "--raw", current.tree, goal}})
	if err != nil {
		return nil, err
	}
	var writes, removes []change
	var maybe []string
	f := nulSplit(out)
	for i := 0; i+1 < len(f); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(f[i], ":"))
		p := f[i+1]
		if len(meta) != 5 || meta[0] == "160000" || meta[1] == "160000" || inDirs(current.excluded, p) {
			continue
		}
		switch {
		case meta[4] != "D":
			writes = append(writes, change{path: p, mode: meta[1], blob: meta[3]})
		case absent[p]:
			removes = append(removes, change{path: p})
		case excludedBy(excluded, p):
		default:
			maybe = append(maybe, p)
		}
	}
	ignored, err := b.ignored(ctx, maybe)
	if err != nil {
		return nil, err
	}
	for _, p := range maybe {
		if !ignored[p] {
			removes = append(removes, change{path: p})
		}
	}
	slices.SortFunc(removes, func(x, y change) int {
		return strings.Count(y.path, "/") - strings.Count(x.path, "/")
	})
	return append(removes, writes...), nil
}

// saveUndo commits the current state, with every path plan touches kept
// exactly (even ignored or large files), as the restore's undo checkpoint.
func (b *gitBackend) saveUndo(ctx context.Context, target Checkpoint, plan []change, excluded []string) (Checkpoint, error) {
	paths := make([]string, len(plan))
	for i, c := range plan {
		paths[i] = c.path
	}
	slices.Sort(paths)
	add, skipped, err := b.forceList(ctx, paths, nil, true)
	if err != nil {
		return Checkpoint{}, err
	}
	if err := b.forceAdd(ctx, add); err != nil {
		return Checkpoint{}, err
	}
	tree, err := b.writeTree(ctx, "")
	if err != nil {
		return Checkpoint{}, err
	}
	return b.commit(ctx, tree, RestoreLabelPrefix+target.ID,
		gitMeta{Paths: without(paths, skipped), Skipped: skipped, Excluded: without(excluded, paths)})
}

// lsTree lists the files of rev's tree.
func (b *gitBackend) lsTree(ctx context.Context, rev string) (map[string]treeEntry, error) {
	out, err := b.r.run(ctx, gitCall{args: []string{"ls-tree", "-r", "-z", "--full-tree", rev}})
	if err != nil {
		return nil, err
	}
	entries := map[string]treeEntry{}
	for _, rec := range nulSplit(out) {
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if ok && len(f) == 3 {
			entries[p] = treeEntry{mode: f[0], blob: f[2]}
		}
	}
	return entries, nil
}

// ignored reports which of paths the project's ignore rules (and the
// store's exclusions) match, whether or not the snapshot holds them.
func (b *gitBackend) ignored(ctx context.Context, paths []string) (map[string]bool, error) {
	set := map[string]bool{}
	if len(paths) == 0 {
		return set, nil
	}
	out, err := b.r.run(ctx, gitCall{args: []string{"check-ignore", "--no-index", "-z", "--stdin"}, stdin: nulJoin(paths), noLiteral: true})
	if err != nil && exitCode(err) != 1 {
		return nil, err
	}
	for _, p := range nulSplit(out) {
		set[p] = true
	}
	return set, nil
}

// namedPaths returns the union of the checkpoints' named paths, sorted.
func namedPaths(cps []Checkpoint) []string {
	var out []string
	for _, cp := range cps {
		out = append(out, cp.Paths...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// inDirs reports whether p lies in one of the directories ("dir/") among
// paths.
func inDirs(paths []string, p string) bool {
	for _, d := range paths {
		if strings.HasSuffix(d, "/") && strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}
