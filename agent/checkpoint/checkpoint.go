package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Backend names, as reported in Checkpoint.Backend.
const (
	// BackendGit marks a checkpoint held as a commit in the shadow git
	// repository: a snapshot of the whole work tree.
	BackendGit = "git"
	// BackendFiles marks a checkpoint held by the content-addressed file
	// store: a snapshot of the named paths only.
	BackendFiles = "files"
)

// DefaultMaxFileSize is the size above which an untracked file the store
// was not told to keep is left out of whole-tree snapshots (see
// WithMaxFileSize).
const DefaultMaxFileSize = 10 << 20

// Checkpoint describes one snapshot of the project, taken before a change.
type Checkpoint struct {
	// ID is short and stable: the first 12 hex digits of the git commit or
	// of the file-store manifest's hash.
	ID string
	// Label says what the snapshot was taken before (a tool call, a restore).
	Label string
	// Time is when the snapshot was taken.
	Time time.Time
	// Paths are the paths named when saving, slash-separated and relative to
	// the project root; restoring puts exactly these back as they were
	// (content, mode, or absence). With git the snapshot covers the whole
	// work tree besides.
	Paths []string
	// Skipped are named paths the snapshot could not keep (not a regular
	// file, symlink or directory, unreadable, beyond a symlink or in a
	// nested repository); restore leaves them alone.
	Skipped []string
	// PathsOnly is set when the snapshot holds only Paths (SaveFiles, and
	// every checkpoint of the file backend); otherwise it holds the whole
	// work tree besides.
	PathsOnly bool
	// Backend is BackendGit or BackendFiles.
	Backend string

	// rev locates the checkpoint in its backend: the full commit hash, or
	// the manifest's file name.
	rev string
	// excluded are the untracked paths a git snapshot left out (gitMeta).
	excluded []string
}

// RestoreLabelPrefix begins the label of the checkpoint a restore saves
// first; the restored checkpoint's id follows it.
const RestoreLabelPrefix = "before restore of "

// Restoration reports what Restore did.
type Restoration struct {
	// Target is the checkpoint that was restored.
	Target Checkpoint
	// Undo is the checkpoint saved just before restoring ("before restore
	// of <id>"); restoring it undoes the restore.
	Undo Checkpoint
	// Written are the paths whose content, mode or link target was put back.
	Written []string
	// Removed are the paths deleted because they did not exist at Target.
	Removed []string
}

// Option adjusts a Store at Open.
type Option func(*options)

type options struct {
	noGit   bool
	gitBin  string
	maxSize int64
}

// WithoutGit makes the Store use only the content-addressed file store, as
// when git is not installed.
func WithoutGit() Option { return func(o *options) { o.noGit = true } }

// WithGit sets the git binary to run (a path or a name looked up in PATH;
// default "git").
func WithGit(bin string) Option { return func(o *options) { o.gitBin = bin } }

// WithMaxFileSize sets the size limit for untracked files that are not
// already part of the snapshot and were not named (default
// DefaultMaxFileSize); n <= 0 means no limit. Named paths are always kept:
// the change is about to rewrite them.
func WithMaxFileSize(n int64) Option { return func(o *options) { o.maxSize = n } }

// Store saves and restores checkpoints of one project root. Its data lives in
// a state directory outside the project. It is safe for concurrent use:
// Save, List and Restore are serialised within the process, and Save and
// Restore also across processes sharing the state directory.
type Store struct {
	stateDir string
	// root is the project root as given (absolute, clean); realRoot has its
	// symlinks resolved and is the directory actually read and written.
	root, realRoot string
	log            *slog.Logger
	git            *gitBackend // nil with WithoutGit
	files          *fileBackend

	// mu serialises Save, List and Restore, and guards gitFailed.
	mu sync.Mutex
	// gitFailed is set once a git snapshot failed; later saves use files.
	gitFailed bool
	// prep runs Prepare's background work.
	prep preparer
}

// Open returns the Store for the project at root, keeping its data under
// stateDir (created on first Save). It does no git work: the shadow
// repository is created by the first Save.
func Open(stateDir, root string, log *slog.Logger, opts ...Option) (*Store, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	o := options{gitBin: "git", maxSize: DefaultMaxFileSize}
	for _, opt := range opts {
		opt(&o)
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint root: %w", err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("checkpoint root: %w", err)
	}
	if fi, err := os.Stat(realRoot); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("checkpoint root %s is not a directory", root)
	}
	stateDir, err = filepath.Abs(stateDir)
	if err != nil {
		return nil, fmt.Errorf("checkpoint state directory: %w", err)
	}
	if insideAny(stateDir, root, realRoot) || insideAny(realPath(stateDir), root, realRoot) {
		return nil, fmt.Errorf("%w: %s", ErrStateInRoot, stateDir)
	}
	s := &Store{stateDir: stateDir, root: root, realRoot: realRoot, log: log}
	s.files = &fileBackend{dir: filepath.Join(stateDir, "files"), root: realRoot}
	if !o.noGit {
		s.git = newGitBackend(o.gitBin, filepath.Join(stateDir, "git"), realRoot, o.maxSize, log)
	}
	return s, nil
}

// Save snapshots the project before a change and returns the new checkpoint.
// paths (absolute, or relative to the root) name the files the change will
// touch; each is kept exactly, including "absent" for a file that does not
// exist yet, so a restore deletes what the change created. With git the
// whole work tree is snapshotted as well (honouring .gitignore), so paths
// may be empty for a shell command. A path outside the root fails with
// ErrOutsideRoot, one inside .git with ErrGitDir.
func (s *Store) Save(ctx context.Context, label string, paths []string) (Checkpoint, error) {
	return s.save(ctx, label, paths, false)
}

// SaveFiles snapshots only the named paths before a change that touches
// nothing else (a file edit), as Save keeps them; its cost follows those
// files, not the size of the work tree. Restoring it (or an older
// checkpoint) puts back the paths named since, and, when a snapshot of the
// whole work tree was taken since, everything else as that snapshot holds
// it.
func (s *Store) SaveFiles(ctx context.Context, label string, paths []string) (Checkpoint, error) {
	return s.save(ctx, label, paths, true)
}

func (s *Store) save(ctx context.Context, label string, paths []string, pathsOnly bool) (Checkpoint, error) {
	if err := ctx.Err(); err != nil {
		return Checkpoint{}, err
	}
	rels, err := s.relPaths(paths)
	if err != nil {
		return Checkpoint{}, err
	}
	label = cleanLabel(label)
	if pathsOnly {
		s.interruptPrep()
		defer s.resumePrep()
	} else if err := s.awaitPrep(ctx); err != nil {
		return Checkpoint{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := lockState(ctx, s.stateDir)
	if err != nil {
		return Checkpoint{}, err
	}
	defer unlock()
	if err := s.claim(); err != nil {
		return Checkpoint{}, err
	}
	return s.saveLocked(ctx, label, rels, pathsOnly)
}

func (s *Store) saveLocked(ctx context.Context, label string, rels []string, pathsOnly bool) (Checkpoint, error) {
	if s.git != nil && !s.gitFailed {
		save := s.git.save
		if pathsOnly {
			save = s.git.saveFiles
		}
		cp, err := save(ctx, label, rels)
		if err == nil {
			return cp, nil
		}
		if ctx.Err() != nil {
			return Checkpoint{}, err
		}
		s.log.Warn("checkpoint: git snapshot failed; using the file store from now on", "err", err)
		s.gitFailed = true
	}
	return s.files.save(ctx, label, rels)
}

// List returns the checkpoints, newest first.
func (s *Store) List(ctx context.Context) ([]Checkpoint, error) {
	s.interruptPrep()
	defer s.resumePrep()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listLocked(ctx)
}

func (s *Store) listLocked(ctx context.Context) ([]Checkpoint, error) {
	if owner, err := s.owner(); err != nil || owner != "" && owner != s.realRoot {
		return nil, s.ownerError(owner, err)
	}
	var fromGit []Checkpoint
	if s.git != nil {
		var err error
		if fromGit, err = s.git.list(ctx); err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			s.log.Warn("checkpoint: cannot list git checkpoints", "err", err)
		}
	}
	fromFiles, err := s.files.list()
	if err != nil {
		return nil, err
	}
	return mergeNewestFirst(fromGit, fromFiles), nil
}

// Restore puts the project back as it was at checkpoint id (a full id or a
// unique prefix of at least 4 characters). It first saves the current state
// as a checkpoint labelled "before restore of <id>" (Restoration.Undo), so
// the restore itself can be undone. Modified files get their old content
// and mode, deleted files come back, and files created since are removed;
// ignored files the snapshot does not hold are left alone. Each path takes
// the state recorded by the oldest checkpoint from id on that knows it:
// one naming it, or the first whole-tree snapshot (Save) since; so when
// only SaveFiles checkpoints were taken since id, only the paths they
// named are compared and put back. All writes stay
// inside the root. If it fails part way (ErrBlocked, a cancelled ctx), the
// files already put back stay so; the returned Restoration.Undo, when its
// ID is set, still restores the state from before.
func (s *Store) Restore(ctx context.Context, id string) (Restoration, error) {
	if err := ctx.Err(); err != nil {
		return Restoration{}, err
	}
	s.interruptPrep()
	defer s.resumePrep()
	s.mu.Lock()
	defer s.mu.Unlock()
	unlock, err := lockState(ctx, s.stateDir)
	if err != nil {
		return Restoration{}, err
	}
	defer unlock()
	if err := s.claim(); err != nil {
		return Restoration{}, err
	}
	all, err := s.listLocked(ctx)
	if err != nil {
		return Restoration{}, err
	}
	i, err := find(all, id)
	if err != nil {
		return Restoration{}, err
	}
	target := all[i]
	since := sameBackend(all[:i+1], target.Backend)
	if target.Backend == BackendGit {
		return s.git.restore(ctx, target, since)
	}
	return s.files.restore(ctx, target, since)
}

// rootFile names the file in the state directory that records the project
// root the checkpoints belong to.
const rootFile = "root"

// claim makes sure the state directory belongs to this Store's root,
// recording the root on first use. The caller holds the state lock.
func (s *Store) claim() error {
	owner, err := s.owner()
	if err != nil || owner == s.realRoot {
		return err
	}
	if owner != "" {
		return s.ownerError(owner, nil)
	}
	return writeFileAtomic(filepath.Join(s.stateDir, rootFile), []byte(s.realRoot))
}

// owner returns the root recorded in the state directory, "" if none.
func (s *Store) owner() (string, error) {
	data, err := os.ReadFile(filepath.Join(s.stateDir, rootFile))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read checkpoint owner: %w", err)
	}
	return string(data), nil
}

// ownerError explains a state directory that is not this project's.
func (s *Store) ownerError(owner string, err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("%w: %s holds checkpoints of %s, not %s", ErrOtherProject, s.stateDir, owner, s.realRoot)
}

// find returns the index of the checkpoint id names.
func find(all []Checkpoint, id string) (int, error) {
	id = strings.ToLower(strings.TrimSpace(id))
	found := -1
	for i, cp := range all {
		if cp.ID == id {
			return i, nil
		}
		if len(id) >= 4 && strings.HasPrefix(cp.ID, id) {
			if found >= 0 {
				return 0, fmt.Errorf("%w: %s", ErrAmbiguous, id)
			}
			found = i
		}
	}
	if found < 0 {
		return 0, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return found, nil
}

// sameBackend returns the checkpoints of cps held by backend, keeping order.
func sameBackend(cps []Checkpoint, backend string) []Checkpoint {
	var out []Checkpoint
	for _, cp := range cps {
		if cp.Backend == backend {
			out = append(out, cp)
		}
	}
	return out
}

// mergeNewestFirst merges two newest-first lists into one.
func mergeNewestFirst(a, b []Checkpoint) []Checkpoint {
	out := make([]Checkpoint, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Time.After(a[0].Time) {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// cleanLabel makes label one short line.
func cleanLabel(label string) string {
	label = strings.Join(strings.Fields(label), " ")
	if r := []rune(label); len(r) > 200 {
		label = string(r[:200])
	}
	if label == "" {
		label = "checkpoint"
	}
	return label
}
