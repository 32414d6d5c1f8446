package checkpoint

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

const (
	// checkpointRef is the shadow repository's ref to the newest checkpoint;
	// each checkpoint commit's parent is the one before it.
	checkpointRef = "refs/companion/checkpoints"
	// metaPrefix starts the commit message line holding gitMeta as JSON.
	metaPrefix = "companion-checkpoint: "
	// shadowAttributes turns off every content conversion, so files come
	// back byte for byte whatever the project's .gitattributes say.
	shadowAttributes = "* -text -eol -crlf -filter -ident -working-tree-encoding\n"
)

// gitMeta is the part of a checkpoint commit's message the store reads back.
type gitMeta struct {
	V       int       `json:"v"`
	Time    time.Time `json:"time"`
	Paths   []string  `json:"paths,omitempty"`
	Skipped []string  `json:"skipped,omitempty"`
	// Excluded are the untracked paths left out of the tree (large files,
	// nested repositories as "dir/").
	Excluded []string `json:"excluded,omitempty"`
	// Scope is scopePaths when the tree holds only Paths (SaveFiles);
	// empty for a snapshot of the whole work tree.
	Scope string `json:"scope,omitempty"`
}

// scopePaths marks a checkpoint of the named paths only.
const scopePaths = "paths"

// staged is the result of staging the work tree.
type staged struct {
	tree     string
	skipped  []string // named paths that could not be kept
	excluded []string // see gitMeta.Excluded
	// indexed is set when tree is that of the shadow index's entries.
	indexed bool
}

// gitBackend keeps checkpoints as commits of a shadow repository whose work
// tree is the project root.
type gitBackend struct {
	r   gitRunner
	max int64
	log *slog.Logger
	// maxDrift is the most paths a snapshot builds on the recorded tree
	// (maxDriftPaths; tests lower it).
	maxDrift int
}

func newGitBackend(bin, gitDir, root string, max int64, log *slog.Logger) *gitBackend {
	return &gitBackend{r: gitRunner{bin: bin, gitDir: gitDir, workTree: root, log: log}, max: max, log: log, maxDrift: maxDriftPaths}
}

// save snapshots the work tree plus the named paths and commits it.
func (b *gitBackend) save(ctx context.Context, label string, named []string) (Checkpoint, error) {
	if err := b.prepare(ctx); err != nil {
		return Checkpoint{}, err
	}
	st, err := b.stage(ctx, named, false)
	if err != nil {
		return Checkpoint{}, err
	}
	return b.commit(ctx, st.tree, label, gitMeta{Paths: without(named, st.skipped), Skipped: st.skipped, Excluded: st.excluded}, st.indexed)
}

// prepare creates the shadow repository on first use and removes lock files
// and temporary files a crashed git or store left behind (safe: the caller
// holds the store's lock, so no other git runs on this repository), among
// them the info/exclude only a fallback add keeps (older versions kept it
// always).
func (b *gitBackend) prepare(ctx context.Context) error {
	if _, err := b.r.lookPath(); err != nil {
		return err
	}
	dir := b.r.gitDir
	leftovers, _ := filepath.Glob(filepath.Join(dir, pathsIndexPrefix+"*"))
	for _, name := range []string{"index.lock", "HEAD.lock", "config.lock", "packed-refs.lock",
		filepath.FromSlash(checkpointRef) + ".lock", "index.restore", seedIndex, seedIndex + ".lock",
		filepath.Join("info", "exclude")} {
		leftovers = append(leftovers, filepath.Join(dir, name))
	}
	for _, name := range leftovers {
		if err := os.Remove(name); err == nil {
			b.log.Info("checkpoint: removed a stale git file", "file", filepath.Base(name))
		}
	}
	b.r.borrow = b.borrowable()
	attrs := filepath.Join(dir, "info", "attributes")
	if _, err := os.Stat(attrs); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(dir, "info"), 0o700); err != nil {
		return fmt.Errorf("create shadow repository: %w", err)
	}
	if _, err := b.r.run(ctx, gitCall{args: []string{"init", "--quiet", "--template="}}); err != nil {
		return err
	}
	return writeFileAtomic(attrs, []byte(shadowAttributes))
}

// forceAdd adds paths to the index (or the given index file) even when
// ignored. complete is false when some could not be read.
func (b *gitBackend) forceAdd(ctx context.Context, paths []string, index string) (complete bool, err error) {
	if len(paths) == 0 {
		return true, nil
	}
	_, err = b.r.run(ctx, gitCall{
		args:  []string{"add", "--force", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul"},
		stdin: nulJoin(paths), index: index, ownStore: true,
	})
	if exitCode(err) == 1 {
		b.log.Warn("checkpoint: some named files could not be read into the snapshot", "err", err)
		return false, nil
	}
	return err == nil, err
}

// writeTree writes the index (or the given index file) as a tree. Blobs
// borrowed from the project's store are not looked up; the trees are
// written to the shadow store.
func (b *gitBackend) writeTree(ctx context.Context, index string) (string, error) {
	out, err := b.r.run(ctx, gitCall{args: []string{"write-tree", "--missing-ok"}, index: index})
	return strings.TrimSpace(string(out)), err
}

// forceList sorts named paths into those to add explicitly (files and
// symlinks that exist, whatever their size: the change is about to
// rewrite them) and those the snapshot cannot keep: other file types,
// paths beyond a symlink and paths in nested repositories (directories
// among excluded, or below a directory holding a .git). Absent paths and
// directories are neither.
func (b *gitBackend) forceList(named, excluded []string) (add, skipped []string, err error) {
	for _, p := range named {
		if inDirs(excluded, p) || !plainParents(b.r.workTree, p) || inNestedRepo(b.r.workTree, p) {
			skipped = append(skipped, p)
			continue
		}
		fi, err := os.Lstat(filepath.Join(b.r.workTree, filepath.FromSlash(p)))
		switch {
		case isAbsent(err) || err == nil && fi.IsDir():
		case err != nil:
			return nil, nil, fmt.Errorf("snapshot %s: %w", p, err)
		case fi.Mode()&fs.ModeSymlink != 0 || fi.Mode().IsRegular():
			add = append(add, p)
		default:
			skipped = append(skipped, p)
		}
	}
	return add, skipped, nil
}

// inNestedRepo reports whether a directory above rel (below root) holds a
// .git: its files belong to another repository.
func inNestedRepo(root, rel string) bool {
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(dir), ".git")); err == nil {
			return true
		}
	}
	return false
}

// plainParents reports whether no directory above rel (below root) is a
// symlink: git holds nothing beyond a symlink.
func plainParents(root, rel string) bool {
	dir := filepath.Dir(filepath.FromSlash(rel))
	for dir != "." {
		fi, err := os.Lstat(filepath.Join(root, dir))
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return false
		}
		dir = filepath.Dir(dir)
	}
	return true
}

// head returns the newest checkpoint commit, or "" when there is none.
// The ref is a loose file (the shadow repository is never packed), read
// without running git when it is there.
func (b *gitBackend) head(ctx context.Context) (string, error) {
	if id, ok := readLooseRef(b.r.gitDir, checkpointRef); ok {
		return id, nil
	}
	out, err := b.r.run(ctx, gitCall{args: []string{"rev-parse", "-q", "--verify", checkpointRef + "^{commit}"}})
	if exitCode(err) == 1 {
		return "", nil
	}
	return strings.TrimSpace(string(out)), err
}

// commit records tree as the newest checkpoint. The ref moves only after
// the commit is written, and only from the head it was built on, so a crash
// or a racing writer never loses a checkpoint. indexed says that tree is
// that of the shadow index's entries: the shadow HEAD then moves to the
// commit too, so that a status compares the index with a tree equal to
// it, not with an older one.
func (b *gitBackend) commit(ctx context.Context, tree, label string, m gitMeta, indexed bool) (Checkpoint, error) {
	parent, err := b.head(ctx)
	if err != nil {
		return Checkpoint{}, err
	}
	m.V, m.Time = 1, time.Now().UTC()
	m.Paths, m.Skipped, m.Excluded = nilIfEmpty(m.Paths), nilIfEmpty(m.Skipped), nilIfEmpty(m.Excluded)
	js, err := json.Marshal(m)
	if err != nil {
		return Checkpoint{}, err
	}
	args := []string{"commit-tree", tree}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	msg := label + "\n\n" + metaPrefix + string(js) + "\n"
	out, err := b.r.run(ctx, gitCall{args: args, stdin: strings.NewReader(msg)})
	if err != nil {
		return Checkpoint{}, err
	}
	rev := strings.TrimSpace(string(out))
	if err := b.moveRefs(ctx, rev, parent, indexed); err != nil {
		return Checkpoint{}, err
	}
	return Checkpoint{ID: shortID(rev), Label: label, Time: m.Time, Paths: m.Paths, Skipped: m.Skipped,
		PathsOnly: m.Scope == scopePaths, Backend: BackendGit, rev: rev, excluded: m.Excluded}, nil
}

// moveRefs points the checkpoint ref at rev, only from parent ("" when
// there is none yet), and the shadow HEAD too when head is set, in the
// same transaction.
func (b *gitBackend) moveRefs(ctx context.Context, rev, parent string, head bool) error {
	old := parent
	if old == "" {
		old = nullOID
	}
	var in strings.Builder
	fmt.Fprintf(&in, "update %s %s %s\n", checkpointRef, rev, old)
	if head {
		fmt.Fprintf(&in, "option no-deref\nupdate HEAD %s\n", rev)
	}
	_, err := b.r.run(ctx, gitCall{args: []string{"update-ref", "--stdin"}, stdin: strings.NewReader(in.String())})
	return err
}

// list reads the checkpoint commits, newest first.
func (b *gitBackend) list(ctx context.Context) ([]Checkpoint, error) {
	if _, err := os.Stat(filepath.Join(b.r.gitDir, "HEAD")); err != nil {
		return nil, nil
	}
	head, err := b.head(ctx)
	if err != nil || head == "" {
		return nil, err
	}
	out, err := b.r.run(ctx, gitCall{args: []string{"log", "-z", "--format=%H%x1f%ct%x1f%B", head}})
	if err != nil {
		return nil, err
	}
	var cps []Checkpoint
	for _, rec := range nulSplit(out) {
		if cp, ok := parseCommit(strings.TrimLeft(rec, "\n")); ok {
			cps = append(cps, cp)
		}
	}
	return cps, nil
}

// parseCommit reads one "hash \x1f unix-time \x1f message" record of list.
func parseCommit(rec string) (Checkpoint, bool) {
	f := strings.SplitN(rec, "\x1f", 3)
	if len(f) != 3 || len(f[0]) < 12 {
		return Checkpoint{}, false
	}
	cp := Checkpoint{ID: shortID(f[0]), Backend: BackendGit, rev: f[0]}
	label, rest, _ := strings.Cut(f[2], "\n")
	cp.Label = strings.TrimSpace(label)
	if sec, err := strconv.ParseInt(f[1], 10, 64); err == nil {
		cp.Time = time.Unix(sec, 0).UTC()
	}
	for line := range strings.SplitSeq(rest, "\n") {
		var m gitMeta
		if js, ok := strings.CutPrefix(line, metaPrefix); ok && json.Unmarshal([]byte(js), &m) == nil {
			cp.Time, cp.Paths, cp.Skipped, cp.excluded = m.Time, m.Paths, m.Skipped, m.Excluded
			cp.PathsOnly = m.Scope == scopePaths
		}
	}
	return cp, true
}

// shortID is the id shown for a full hash.
func shortID(rev string) string { return rev[:min(12, len(rev))] }

// without returns paths minus those in drop.
func without(paths, drop []string) []string {
	if len(drop) == 0 {
		return paths
	}
	gone := map[string]bool{}
	for _, p := range drop {
		gone[p] = true
	}
	var out []string
	for _, p := range paths {
		if !gone[p] {
			out = append(out, p)
		}
	}
	return out
}

// nilIfEmpty normalises an empty slice to nil.
func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
