package checkpoint

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
)

// change is one path a restore writes (mode and blob set) or removes.
type change struct {
	path string
	mode string // "100644", "100755" or "120000"; "" to remove
	blob string
	// held is set in a restore's plan when the current snapshot holds a
	// file at path.
	held bool
}

// treeEntry is a file of a snapshot tree.
type treeEntry struct {
	mode, blob string
}

// restore puts the work tree back as it was at target; since are the git
// checkpoints from the newest down to target. Each path takes its state
// from the oldest checkpoint since target that knows it: one naming it,
// or the first snapshot of the whole work tree. When there is no such
// snapshot, only named paths are restored (restorePaths).
func (b *gitBackend) restore(ctx context.Context, target Checkpoint, since []Checkpoint) (Restoration, error) {
	if err := b.prepare(ctx); err != nil {
		return Restoration{}, err
	}
	known, leave, full, err := b.pathGoals(ctx, since)
	if err != nil {
		return Restoration{}, err
	}
	if full < 0 {
		return b.restorePaths(ctx, target, known)
	}
	current, err := b.stage(ctx, namedPaths(since), false)
	if err != nil {
		return Restoration{}, err
	}
	base := since[full]
	goal, absent, err := b.goalTree(ctx, base, since[:full], known)
	if err != nil {
		return Restoration{}, err
	}
	plan, err := b.plan(ctx, current, goal, absent, base.excluded)
	if err != nil {
		return Restoration{}, err
	}
	plan = slices.DeleteFunc(plan, func(c change) bool { return leave[c.path] })
	undo, err := b.saveUndo(ctx, target, plan, current)
	if err != nil {
		return Restoration{}, err
	}
	res := Restoration{Target: target, Undo: undo}
	res.Removed, res.Written, err = b.apply(ctx, plan)
	return res, err
}

// goalTree returns the tree to restore and the paths known to have been
// absent. It is base's tree (a snapshot of the whole work tree), with the
// paths known from older checkpoints (known) put as they were then, and
// completed for ignored paths that base neither holds nor names but a
// newer checkpoint named: the oldest such checkpoint tells their state
// before the changes since base (content, or absent).
func (b *gitBackend) goalTree(ctx context.Context, base Checkpoint, newer []Checkpoint, known map[string]*treeEntry) (string, map[string]bool, error) {
	named := map[string]bool{}
	for _, p := range base.Paths {
		named[p] = true
	}
	var cand []string
	for _, cp := range newer {
		for _, p := range cp.Paths {
			if _, ok := known[p]; !ok && !named[p] {
				named[p] = true
				cand = append(cand, p)
			}
		}
	}
	held, err := b.lsTreePaths(ctx, base.rev, append(slices.Clone(base.Paths), cand...))
	if err != nil {
		return "", nil, err
	}
	absent := map[string]bool{}
	for _, p := range base.Paths {
		if _, ok := held[p]; !ok {
			absent[p] = true
		}
	}
	cand = slices.DeleteFunc(cand, func(p string) bool { _, ok := held[p]; return ok })
	extra, err := b.ignored(ctx, cand)
	if err != nil {
		return "", nil, err
	}
	for _, p := range cand {
		if excludedBy(base.excluded, p) {
			extra[p] = true // base left it out: its state then is unknown
		}
	}
	for i := len(newer) - 1; i >= 0 && len(extra) > 0; i-- {
		if err := b.decideExtras(ctx, newer[i], extra, known); err != nil {
			return "", nil, err
		}
	}
	edits := make([]change, 0, len(known))
	for p, e := range known {
		delete(absent, p)
		if e == nil {
			absent[p] = true
			edits = append(edits, change{path: p})
		} else {
			edits = append(edits, change{path: p, mode: e.mode, blob: e.blob})
		}
	}
	slices.SortFunc(edits, func(x, y change) int { return strings.Compare(x.path, y.path) })
	tree, _, err := b.editTree(ctx, base.rev, edits)
	return tree, absent, err
}

// nullOID stands for no object in update-index input (mode 0 removes).
const nullOID = "0000000000000000000000000000000000000000"

// decideExtras moves the paths of extra that cp names into known, with
// their state in cp.
func (b *gitBackend) decideExtras(ctx context.Context, cp Checkpoint, extra map[string]bool, known map[string]*treeEntry) error {
	var decided []string
	for _, p := range cp.Paths {
		if extra[p] {
			decided = append(decided, p)
		}
	}
	entries, err := b.lsTreePaths(ctx, cp.rev, decided)
	if err != nil {
		return err
	}
	for _, p := range decided {
		delete(extra, p)
		known[p] = nil
		if e, ok := entries[p]; ok {
			known[p] = &e
		}
	}
	return nil
}

// plan lists the changes from the current tree to goal: writes for added,
// modified and retyped files, removals for files goal lacks unless they are
// ignored or were left out of the target (excluded) and are not known to
// have been absent. Nested repositories (gitlinks, or directories now
// holding a .git) are never touched. Removals come first, deepest first.
func (b *gitBackend) plan(ctx context.Context, current staged, goal string, absent map[string]bool, excluded []string) ([]change, error) {
	// diff-tree reads the index, which it does not need: it gets none.
	out, err := b.r.run(ctx, gitCall{args: []string{"diff-tree", "-r", "-z", "--no-renames", "--raw", current.tree, goal},
		index: filepath.Join(b.r.gitDir, noIndex)})
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
			writes = append(writes, change{path: p, mode: meta[1], blob: meta[3], held: meta[0] != "000000"})
		case absent[p]:
			removes = append(removes, change{path: p, held: true})
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
			removes = append(removes, change{path: p, held: true})
		}
	}
	return append(deepestFirst(removes), writes...), nil
}

// saveUndo commits the current state, with every path plan touches kept
// exactly (even ignored or large files), as the restore's undo checkpoint:
// the current tree, plus the files plan writes over that it lacks.
func (b *gitBackend) saveUndo(ctx context.Context, target Checkpoint, plan []change, current staged) (Checkpoint, error) {
	paths := make([]string, len(plan))
	held := map[string]bool{}
	for i, c := range plan {
		paths[i] = c.path
		held[c.path] = c.held
	}
	slices.Sort(paths)
	add, skipped, err := b.forceList(paths, nil)
	if err != nil {
		return Checkpoint{}, err
	}
	add = slices.DeleteFunc(add, func(p string) bool { return held[p] })
	entries, _, err := b.hashFiles(ctx, add)
	if err != nil {
		return Checkpoint{}, err
	}
	var edits []change
	for _, p := range add {
		if e, ok := entries[p]; ok {
			edits = append(edits, change{path: p, mode: e.mode, blob: e.blob})
		}
	}
	tree, added, err := b.editTree(ctx, current.tree, edits)
	if err == nil {
		err = b.track(ctx, added)
	}
	if err != nil {
		return Checkpoint{}, err
	}
	return b.commit(ctx, tree, RestoreLabelPrefix+target.ID,
		gitMeta{Paths: without(paths, skipped), Skipped: skipped, Excluded: without(current.excluded, paths)},
		current.indexed && len(edits) == 0)
}

// lsTree runs ls-tree with args and returns the files it lists.
func (b *gitBackend) lsTree(ctx context.Context, args []string) (map[string]treeEntry, error) {
	out, err := b.r.run(ctx, gitCall{args: args})
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

// ignored reports which of paths the project's ignore rules match, whether
// or not the snapshot holds them.
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
