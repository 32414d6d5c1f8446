package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
)

// Files of the shadow repository that record what its index was seeded
// from.
const (
	// borrowedFile lists, one a line, the object directories of the
	// project's own repository whose blobs snapshots refer to.
	borrowedFile = "companion-borrowed"
	// seededFile holds the project's HEAD commit the index was last
	// seeded at.
	seededFile = "companion-seeded"
	// seedIndex is the temporary index a seed is built in.
	seedIndex = "index.seed"
)

// userRepo is the project's own git repository, when the root is the top
// of its work tree.
type userRepo struct {
	gitDir  string // the work tree's git directory (index, HEAD)
	objects string // the object directory (shared by all worktrees)
}

// findUserRepo returns the repository whose work tree top is root: root/.git
// is its git directory or a "gitdir:" file naming it (worktrees,
// submodules). Sparse checkouts are left out: their index holds files the
// work tree does not.
func findUserRepo(root string) (userRepo, bool) {
	gitDir, ok := GitDirOf(filepath.Join(root, ".git"))
	if !ok || !fileExists(filepath.Join(gitDir, "index")) {
		return userRepo{}, false
	}
	common := commonDir(root)
	for _, dir := range []string{gitDir, common} {
		if _, err := os.Stat(filepath.Join(dir, "info", "sparse-checkout")); err == nil {
			return userRepo{}, false
		}
	}
	objects := filepath.Join(common, "objects")
	if fi, err := os.Stat(objects); err != nil || !fi.IsDir() {
		return userRepo{}, false
	}
	return userRepo{gitDir: gitDir, objects: objects}, true
}

// commonDir returns the directory holding the objects, refs and
// info/exclude of the repository whose work tree top is root ("" when
// there is none): its git directory, or for a worktree the main one's.
func commonDir(root string) string {
	gitDir, ok := GitDirOf(filepath.Join(root, ".git"))
	if !ok {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	common := strings.TrimSpace(string(data))
	if !filepath.IsAbs(common) {
		common = filepath.Join(gitDir, common)
	}
	return filepath.Clean(common)
}

// GitDirOf returns the git directory a .git entry stands for: the
// directory itself, or the one a "gitdir:" file names (worktrees,
// submodules). It reads files only; git need not be installed.
func GitDirOf(dotGit string) (string, bool) {
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

// seedIfStale starts the shadow index from the project's own index when
// there is no shadow index yet or the project's HEAD moved since the last
// seed, so that files git already knows are not read again: a copy of the
// project's index keeps their stat data, and their blobs are borrowed from
// the project's object store. Only entries equal to the HEAD commit's are
// kept (a commit's objects stay while any ref or reflog reaches it); every
// other file is hashed into the shadow store by the next add. Any failure
// leaves the shadow index as it was: seeding only saves time.
func (b *gitBackend) seedIfStale(ctx context.Context) {
	repo, ok := findUserRepo(b.r.workTree)
	if !ok {
		return
	}
	head, err := b.userHead(ctx, repo)
	if err != nil || head == "" {
		b.log.Debug("checkpoint: not seeding from the project's index", "err", err)
		return
	}
	index := filepath.Join(b.r.gitDir, "index")
	if last, err := os.ReadFile(filepath.Join(b.r.gitDir, seededFile)); err == nil && fileExists(index) &&
		strings.TrimSpace(string(last)) == head {
		return
	}
	if err := b.seed(ctx, repo, head); err != nil {
		os.Remove(filepath.Join(b.r.gitDir, seedIndex))
		if ctx.Err() == nil {
			b.log.Info("checkpoint: cannot seed from the project's index", "err", err)
		}
	}
}

// userHead returns the project's HEAD commit, "" when there is none or
// the repository does not use SHA-1 like the shadow one. The usual HEAD
// (a branch whose ref is a file of its own, or a detached commit) is read
// without running git.
func (b *gitBackend) userHead(ctx context.Context, repo userRepo) (string, error) {
	if id, ok := readHead(repo.gitDir, filepath.Dir(repo.objects)); ok {
		return id, nil
	}
	out, err := b.r.run(ctx, gitCall{repo: repo.gitDir,
		args: []string{"rev-parse", "--show-object-format", "--verify", "-q", "HEAD^{commit}"}})
	if exitCode(err) == 1 {
		return "", nil
	}
	f := strings.Fields(string(out))
	if err != nil || len(f) != 2 || f[0] != "sha1" {
		return "", err
	}
	return f[1], nil
}

// seed builds the shadow index from the project's one and puts it in
// place.
func (b *gitBackend) seed(ctx context.Context, repo userRepo, head string) error {
	tmp := filepath.Join(b.r.gitDir, seedIndex)
	if err := copyIndex(filepath.Join(repo.gitDir, "index"), tmp); err != nil {
		return err
	}
	drop, err := b.unborrowable(ctx, tmp, head, repo.objects)
	if err != nil {
		return err
	}
	if len(drop) > 0 {
		call := gitCall{args: []string{"update-index", "-z", "--force-remove", "--stdin"}, index: tmp, stdin: nulJoin(drop)}
		if _, err := b.r.run(ctx, call); err != nil {
			return err
		}
	}
	if err := b.recordBorrowed(repo.objects); err != nil {
		return err
	}
	b.r.borrow = b.borrowable()
	if err := os.Rename(tmp, filepath.Join(b.r.gitDir, "index")); err != nil {
		return err
	}
	b.log.Debug("checkpoint: seeded the snapshot index from the project's", "head", head, "dropped", len(drop))
	return writeFileAtomic(filepath.Join(b.r.gitDir, seededFile), []byte(head+"\n"))
}

// unborrowable lists the entries of index whose blob is not HEAD's (staged
// changes, conflicts, intent-to-add) or whose file git would not look at
// (assume-unchanged, skip-worktree): the next add reads those from the
// work tree.
func (b *gitBackend) unborrowable(ctx context.Context, index, head, objects string) ([]string, error) {
	out, err := b.r.run(ctx, gitCall{args: []string{"diff-index", "--cached", "-z", "--name-only", "--no-renames", head},
		index: index, borrow: []string{objects}})
	if err != nil {
		return nil, err
	}
	drop := nulSplit(out)
	out, err = b.r.run(ctx, gitCall{args: []string{"ls-files", "-z", "-v", "--stage"}, index: index})
	if err != nil {
		return nil, err
	}
	for _, rec := range nulSplit(out) {
		tag, rest, _ := strings.Cut(rec, " ")
		meta, p, ok := strings.Cut(rest, "\t")
		stage := strings.Fields(meta)
		if ok && (tag != "H" || len(stage) == 3 && stage[2] != "0") {
			drop = append(drop, p)
		}
	}
	slices.Sort(drop)
	return slices.Compact(drop), nil
}

// copyIndex copies the project's index file to dst with its modification
// time, which git compares entries' times with to catch files changed in
// the same instant the index was written.
func copyIndex(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chtimes(dst, fi.ModTime(), fi.ModTime())
}

// recordBorrowed adds objects to the list of directories snapshots borrow
// blobs from, before any snapshot refers to them.
func (b *gitBackend) recordBorrowed(objects string) error {
	have, err := b.borrowed()
	if err != nil || slices.Contains(have, objects) {
		return err
	}
	if strings.ContainsFunc(objects, func(r rune) bool { return r == '\n' || r == os.PathListSeparator || !unicode.IsPrint(r) }) {
		return fmt.Errorf("object directory %q cannot be listed", objects)
	}
	data := strings.Join(append(have, objects), "\n") + "\n"
	return writeFileAtomic(filepath.Join(b.r.gitDir, borrowedFile), []byte(data))
}

// borrowed returns the object directories snapshots may borrow blobs from.
func (b *gitBackend) borrowed() ([]string, error) {
	data, err := os.ReadFile(filepath.Join(b.r.gitDir, borrowedFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var dirs []string
	for line := range strings.SplitSeq(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			dirs = append(dirs, line)
		}
	}
	return dirs, nil
}

// borrowable returns the recorded object directories that still exist, for
// commands that read blobs.
func (b *gitBackend) borrowable() []string {
	dirs, err := b.borrowed()
	if err != nil {
		b.log.Warn("checkpoint: cannot read the borrowed object directories", "err", err)
	}
	return slices.DeleteFunc(dirs, func(d string) bool {
		fi, err := os.Stat(d)
		return err != nil || !fi.IsDir()
	})
}

// readHead reads the commit a repository's HEAD names when it is plain:
// a SHA-1 id, or a branch whose ref is a loose file (in gitDir, or in
// common for every worktree). Anything else (packed refs, another ref
// store or object format) is left to git: ok is false.
func readHead(gitDir, common string) (id string, ok bool) {
	data, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", false
	}
	head := strings.TrimSpace(string(data))
	ref, symbolic := strings.CutPrefix(head, "ref: ")
	if !symbolic {
		if !isSHA1(head) {
			return "", false
		}
		return head, true
	}
	if !strings.HasPrefix(ref, "refs/heads/") || strings.Contains(ref, "..") {
		return "", false
	}
	for _, dir := range []string{gitDir, common} {
		if id, ok := readLooseRef(dir, ref); ok {
			return id, true
		}
	}
	return "", false
}

// readLooseRef reads the SHA-1 id in the loose ref file of ref (such as
// refs/heads/main) in a git directory.
func readLooseRef(gitDir, ref string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref)))
	if err != nil {
		return "", false
	}
	id := strings.TrimSpace(string(data))
	if !isSHA1(id) {
		return "", false
	}
	return id, true
}

// isSHA1 reports whether s is a full SHA-1 id in lower-case hex.
func isSHA1(s string) bool {
	return len(s) == 40 && strings.Trim(s, "0123456789abcdef") == ""
}
