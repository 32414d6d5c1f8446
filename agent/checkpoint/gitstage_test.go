package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGitLaterSnapshotsOnTheRecordedTree makes one kind of change after
// another and takes a whole-tree snapshot after each. Every snapshot must
// hold exactly the tree a fresh store's first snapshot (update-index and
// write-tree on a full index) holds of the same work tree. The later
// snapshots are built on the recorded tree: the shadow index's entries
// stay as they were, except where the changes are too many and are
// folded into it.
func TestGitLaterSnapshotsOnTheRecordedTree(t *testing.T) {
	requireGit(t)
	t.Parallel()
	for _, repo := range []bool{false, true} {
		t.Run(fmt.Sprintf("project repository %v", repo), func(t *testing.T) {
			t.Parallel()
			p := newProject(t, map[string]string{"a.txt": "a", "b.txt": "b", "c.txt": "c", "dir/d1.txt": "d1",
				"dir/sub/d2.txt": "d2", "keep/k.txt": "k", ".gitignore": "*.log\n"}, WithMaxFileSize(100))
			if repo {
				projectGit(t, p.root, "init", "-q")
				projectGit(t, p.root, "add", "--all")
				projectGit(t, p.root, "commit", "-q", "-m", "base")
			}
			p.store.git.maxDrift = 12
			p.save("first")
			steps := []struct {
				name   string
				change func()
				fold   bool // the index takes the changes
			}{
				{"nothing changed", func() {}, false},
				{"modified, deleted, executable bit", func() {
					p.write("a.txt", "A")
					os.Remove(p.path("b.txt"))
					os.Chmod(p.path("keep/k.txt"), 0o755)
				}, false},
				{"new file in new directories, new symlink", func() {
					p.write("n/e/w.txt", "new")
					os.Symlink("a.txt", p.path("link"))
				}, false},
				{"retargeted symlink, file becomes a directory", func() {
					os.Remove(p.path("link"))
					os.Symlink("n/e", p.path("link"))
					os.Remove(p.path("c.txt"))
					p.write("c.txt/inner.txt", "inner")
				}, false},
				{"directory becomes a file, directory emptied", func() {
					os.RemoveAll(p.path("dir"))
					p.write("dir", "now a file")
					os.Remove(p.path("keep/k.txt"))
				}, false},
				{"ignored file, large untracked file and empty directory stay out", func() {
					p.write("n/x.log", "ignored")
					p.write("big.bin", strings.Repeat("L", 500))
					os.MkdirAll(p.path("empty/dir"), 0o755)
				}, false},
				{"large file shrinks", func() { p.write("big.bin", "small") }, false},
				{"many new files", func() {
					for i := range p.store.git.maxDrift + 1 {
						p.write(fmt.Sprintf("many/f%04d.txt", i), "m")
					}
				}, true},
				{"after the fold", func() { p.write("many/f0000.txt", "changed") }, false},
			}
			b := p.store.git
			for _, step := range steps {
				entries := shadowEntries(t, b)
				step.change()
				cp := p.save(step.name)
				if got, want := lsTreeAll(t, b, treeOf(t, b, cp)), freshTree(t, p); got != want {
					t.Errorf("%s: the snapshot holds\n%s\nwant\n%s", step.name, got, want)
				}
				if changed := shadowEntries(t, b) != entries; changed != step.fold {
					t.Errorf("%s: the shadow index's entries changed: %v, want %v", step.name, changed, step.fold)
				}
			}
		})
	}
}

// freshTree lists the tree a store with a new state directory takes of
// the project as its first whole-tree snapshot.
func freshTree(t *testing.T, p *project) string {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "state"), p.root, testLogger(t), WithMaxFileSize(100))
	if err != nil {
		t.Fatal(err)
	}
	q := &project{t: t, root: p.root, store: s}
	cp := q.save("fresh")
	return lsTreeAll(t, s.git, treeOf(t, s.git, cp))
}

// TestGitStaleIndexRecordIsNotUsed changes the shadow index's entries
// behind the store's back (as a crash between update-index and the
// record, or another version of companion, could): the recorded tree no
// longer describes the index, and the next snapshot must not build on it.
func TestGitStaleIndexRecordIsNotUsed(t *testing.T) {
	requireGit(t)
	t.Parallel()
	p := newProject(t, map[string]string{"a.txt": "a", "b.txt": "b"})
	p.save("first")
	p.write("a.txt", "A")
	b := p.store.git
	call := gitCall{args: []string{"update-index", "--add", "--", "a.txt"}, ownStore: true}
	if _, err := b.r.run(t.Context(), call); err != nil {
		t.Fatal(err)
	}
	cp := p.save("after another writer")
	p.write("a.txt", "changed again")
	p.restore(cp.ID)
	if got := p.read("a.txt"); got != "A" {
		t.Errorf("a.txt = %q, want the snapshot's %q", got, "A")
	}
}

// TestGitRestoreAcrossWholeTreeTouchesOnlyWhatDiffers restores an edit's
// checkpoint with a whole-tree snapshot taken since: only the edited file
// is written, and no other file is touched.
func TestGitRestoreAcrossWholeTreeTouchesOnlyWhatDiffers(t *testing.T) {
	requireGit(t)
	t.Parallel()
	files := map[string]string{"edited.txt": "v1"}
	for i := range 20 {
		files[fmt.Sprintf("d%d/f%d.txt", i%4, i)] = "same"
	}
	p := newProject(t, files)
	p.save("session start")
	cp, err := p.store.SaveFiles(t.Context(), "before edit", []string{"edited.txt"})
	if err != nil {
		t.Fatal(err)
	}
	p.write("edited.txt", "v2")
	p.save("before shell")
	old := time.Now().Add(-time.Hour)
	for name := range files {
		os.Chtimes(p.path(name), old, old)
	}
	res := p.restore(cp.ID)
	if len(res.Written) != 1 || res.Written[0] != "edited.txt" || len(res.Removed) != 0 {
		t.Errorf("Written %q, Removed %q; want only edited.txt written", res.Written, res.Removed)
	}
	if got := p.read("edited.txt"); got != "v1" {
		t.Errorf("edited.txt = %q, want v1", got)
	}
	for name := range files {
		if fi, err := os.Stat(p.path(name)); err != nil || name != "edited.txt" && !fi.ModTime().Equal(old) {
			t.Errorf("%s was touched by the restore (%v)", name, err)
		}
	}
}

// TestGitLaterSnapshotOfAnEmptyProject builds on the empty tree, which
// git knows without storing it.
func TestGitLaterSnapshotOfAnEmptyProject(t *testing.T) {
	requireGit(t)
	t.Parallel()
	p := newProject(t, nil)
	empty := p.save("empty")
	p.write("d/new.txt", "new")
	cp := p.save("one file")
	if got, want := lsTreeAll(t, p.store.git, treeOf(t, p.store.git, cp)), freshTree(t, p); got != want {
		t.Errorf("the snapshot holds\n%s\nwant\n%s", got, want)
	}
	p.restore(empty.ID)
	if p.exists("d/new.txt") {
		t.Error("d/new.txt, created after the empty snapshot, is still there")
	}
}
