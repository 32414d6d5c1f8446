package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// restoreCase is one change that restoring a checkpoint must undo.
type restoreCase struct {
	name   string
	files  map[string]string
	named  []string // "abs:x" names x by its absolute path
	change func(p *project)
	want   map[string]string
}

// restoreCases: files at the start, the paths named when saving, the change
// made after the save, and the expected content (or "<absent>") of some
// files after restoring.
func restoreCases() []restoreCase {
	return []restoreCase{{
		name:   "modified file gets its content back",
		files:  map[string]string{"main.go": "v1\n", "other.go": "same\n"},
		named:  []string{"main.go"},
		change: func(p *project) { p.write("main.go", "v2\n") },
		want:   map[string]string{"main.go": "v1\n", "other.go": "same\n"},
	}, {
		name:   "created file is removed",
		files:  map[string]string{"main.go": "v1\n"},
		named:  []string{"new/dir/created.go"},
		change: func(p *project) { p.write("new/dir/created.go", "fresh\n") },
		want:   map[string]string{"new/dir/created.go": "<absent>", "new": "<absent>", "main.go": "v1\n"},
	}, {
		name:  "deleted file comes back",
		files: map[string]string{"doomed.txt": "keep me\n", "sub/deep.txt": "deep\n"},
		named: []string{"doomed.txt", "sub/deep.txt"},
		change: func(p *project) {
			os.Remove(p.path("doomed.txt"))
			os.RemoveAll(p.path("sub"))
		},
		want: map[string]string{"doomed.txt": "keep me\n", "sub/deep.txt": "deep\n"},
	}, {
		name:   "absolute named path",
		files:  map[string]string{"a.txt": "old"},
		named:  []string{"abs:a.txt"},
		change: func(p *project) { p.write("a.txt", "new") },
		want:   map[string]string{"a.txt": "old"},
	}}
}

func TestRestoreUndoesChanges(t *testing.T) {
	cases := restoreCases()
	for _, bc := range backends(t) {
		for _, tc := range cases {
			t.Run(bc.name+"/"+tc.name, func(t *testing.T) {
				bc.skipWithoutGit(t)
				p := newProject(t, tc.files, bc.opts...)
				var named []string
				for _, n := range tc.named {
					if rel, ok := strings.CutPrefix(n, "abs:"); ok {
						n = p.path(rel)
					}
					named = append(named, n)
				}
				cp := p.save("edit", named...)
				if cp.Backend != bc.backend {
					t.Fatalf("Backend = %q, want %q", cp.Backend, bc.backend)
				}
				tc.change(p)
				res := p.restore(cp.ID)
				p.expect(tc.want)
				if res.Target.ID != cp.ID || res.Undo.ID == "" || res.Undo.ID == cp.ID || len(res.Written)+len(res.Removed) == 0 {
					t.Errorf("Restoration = %+v, want target %s, a new undo checkpoint and changes", res, cp.ID)
				}
			})
		}
	}
}

func TestUndoRestore(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"f.txt": "v1"}, bc.opts...)
			cp := p.save("before edit", "f.txt", "made.txt")
			p.write("f.txt", "v2")
			p.write("made.txt", "made")
			res := p.restore(cp.ID)
			if p.read("f.txt") != "v1" || p.exists("made.txt") {
				t.Fatalf("after restore: f.txt=%q made.txt exists=%v", p.read("f.txt"), p.exists("made.txt"))
			}
			if want := "before restore of " + cp.ID; res.Undo.Label != want {
				t.Errorf("undo label = %q, want %q", res.Undo.Label, want)
			}
			p.restore(res.Undo.ID)
			if got := p.read("f.txt"); got != "v2" {
				t.Errorf("after undoing the restore f.txt = %q, want v2", got)
			}
			if got := p.read("made.txt"); got != "made" {
				t.Errorf("after undoing the restore made.txt = %q, want made", got)
			}
		})
	}
}

func TestRestoreIsIdempotent(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"f.txt": "v1"}, bc.opts...)
			cp := p.save("edit", "f.txt")
			p.write("f.txt", "v2")
			p.restore(cp.ID)
			again := p.restore(cp.ID)
			if len(again.Written)+len(again.Removed) != 0 {
				t.Errorf("second restore changed %v / %v, want nothing", again.Written, again.Removed)
			}
			if got := p.read("f.txt"); got != "v1" {
				t.Errorf("f.txt = %q, want v1", got)
			}
		})
	}
}

func TestIgnoredFilesLeftAlone(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{
				".gitignore": "*.log\nbuild/\n", "main.go": "v1", "app.log": "old log", "build/out.bin": "old",
			}, bc.opts...)
			cp := p.save("edit", "main.go")
			p.write("main.go", "v2")
			p.write("app.log", "new log")
			p.write("fresh.log", "fresh")
			p.write("build/out.bin", "new")
			p.write("build/extra.bin", "extra")
			p.restore(cp.ID)
			want := map[string]string{"main.go": "v1", "app.log": "new log", "fresh.log": "fresh",
				"build/out.bin": "new", "build/extra.bin": "extra"}
			for name, w := range want {
				if got := p.read(name); got != w {
					t.Errorf("%s = %q, want %q", name, got, w)
				}
			}
		})
	}
}

func TestNamedIgnoredFileIsRestorable(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{".gitignore": ".env\n*.secret\n", ".env": "A=1\n"}, bc.opts...)
			first := p.save("edit .env", ".env")
			p.write(".env", "A=2\n")
			second := p.save("create key.secret", "key.secret")
			p.write("key.secret", "xyz")
			p.restore(second.ID)
			if p.exists("key.secret") || p.read(".env") != "A=2\n" {
				t.Fatalf("after restore of %s: key.secret exists=%v .env=%q", second.ID, p.exists("key.secret"), p.read(".env"))
			}
			p.write("key.secret", "xyz")
			p.restore(first.ID)
			if got := p.read(".env"); got != "A=1\n" {
				t.Errorf(".env = %q, want A=1", got)
			}
			if p.exists("key.secret") {
				t.Errorf("key.secret (named, absent at a later checkpoint) was not removed")
			}
		})
	}
}

func TestProjectGitUntouched(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			requireGit(t)
			p := newProject(t, map[string]string{"main.go": "v1\n", "README": "r\n"}, bc.opts...)
			projectGit(t, p.root, "init", "-q")
			projectGit(t, p.root, "add", "-A")
			projectGit(t, p.root, "commit", "-q", "-m", "init")
			p.write("main.go", "dirty\n") // an unstaged change of the user's
			before := treeDigest(t, p.path(".git"))
			status := projectGit(t, p.root, "status", "--porcelain")
			cp := p.save("edit", "main.go", "new.go")
			p.write("main.go", "v2\n")
			p.write("new.go", "new\n")
			res := p.restore(cp.ID)
			p.restore(res.Undo.ID)
			p.restore(cp.ID)
			if after := treeDigest(t, p.path(".git")); after != before {
				t.Errorf("project .git changed:\nbefore:\n%s\nafter:\n%s", before, after)
			}
			if got := projectGit(t, p.root, "status", "--porcelain"); got != status {
				t.Errorf("project git status = %q, want %q", got, status)
			}
		})
	}
}

func TestListOrderAndLabels(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"a": "1"}, bc.opts...)
			if got := p.list(); len(got) != 0 {
				t.Fatalf("List before any Save = %v, want empty", got)
			}
			saved := []Checkpoint{p.save("one", "a"), p.save("  two\nlines ", "b", "a"), p.save("three")}
			got := p.list()
			if len(got) != 3 {
				t.Fatalf("List returned %d checkpoints, want 3", len(got))
			}
			wantLabels := []string{"three", "two lines", "one"}
			wantPaths := [][]string{nil, {"a", "b"}, {"a"}}
			for i, cp := range got {
				want := saved[2-i]
				if cp.ID != want.ID || len(cp.ID) != 12 || cp.Label != wantLabels[i] || cp.Backend != bc.backend {
					t.Errorf("List[%d] = %+v, want id %s label %q", i, cp, want.ID, wantLabels[i])
				}
				if !slices.Equal(cp.Paths, wantPaths[i]) || !slices.Equal(cp.Paths, want.Paths) {
					t.Errorf("List[%d].Paths = %v, want %v", i, cp.Paths, wantPaths[i])
				}
				if !cp.Time.Equal(want.Time) {
					t.Errorf("List[%d].Time = %v, Save said %v", i, cp.Time, want.Time)
				}
			}
		})
	}
}

func TestModeRestored(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"run.sh": "#!/bin/sh\necho hi\n"}, bc.opts...)
			if err := os.Chmod(p.path("run.sh"), 0o755); err != nil {
				t.Fatal(err)
			}
			cp := p.save("edit", "run.sh")
			p.write("run.sh", "changed\n")
			if err := os.Chmod(p.path("run.sh"), 0o644); err != nil {
				t.Fatal(err)
			}
			p.restore(cp.ID)
			fi, err := os.Stat(p.path("run.sh"))
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o755 || p.read("run.sh") != "#!/bin/sh\necho hi\n" {
				t.Errorf("run.sh mode %v content %q, want 0755 and the old script", fi.Mode().Perm(), p.read("run.sh"))
			}
		})
	}
}

func TestSymlinkRestored(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"target.txt": "t"}, bc.opts...)
			if err := os.Symlink("target.txt", p.path("link")); err != nil {
				t.Skip("symlinks unsupported:", err)
			}
			cp := p.save("edit", "link")
			os.Remove(p.path("link"))
			p.write("link", "now a file")
			p.restore(cp.ID)
			if got, err := os.Readlink(p.path("link")); err != nil || got != "target.txt" {
				t.Errorf("link = %q, %v; want a symlink to target.txt", got, err)
			}
		})
	}
}

func TestPathsOutsideRootRejected(t *testing.T) {
	p := newProject(t, map[string]string{"a": "1"}, WithoutGit())
	outside := filepath.Join(filepath.Dir(p.root), "elsewhere.txt")
	cases := []struct {
		path string
		want error
	}{
		{"../elsewhere.txt", ErrOutsideRoot},
		{outside, ErrOutsideRoot},
		{"sub/../../elsewhere.txt", ErrOutsideRoot},
		{".git/config", ErrGitDir},
		{"vendor/lib/.git/HEAD", ErrGitDir},
		{p.path(".GIT/index"), ErrGitDir},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			_, err := p.store.Save(context.Background(), "bad", []string{"a", tc.path})
			if !errors.Is(err, tc.want) {
				t.Errorf("Save(%q) error = %v, want %v", tc.path, err, tc.want)
			}
		})
	}
	if got := p.list(); len(got) != 0 {
		t.Errorf("rejected saves left checkpoints: %v", got)
	}
}

func TestOpenRejectsStateInsideRoot(t *testing.T) {
	root := t.TempDir()
	for _, state := range []string{filepath.Join(root, ".companion"), root} {
		if _, err := Open(state, root, nil); !errors.Is(err, ErrStateInRoot) {
			t.Errorf("Open(state %s) error = %v, want ErrStateInRoot", state, err)
		}
	}
}

func TestRestoreIDs(t *testing.T) {
	p := newProject(t, map[string]string{"a": "1"}, WithoutGit())
	cp := p.save("one", "a")
	cases := []struct {
		id   string
		want error
	}{
		{cp.ID, nil},
		{cp.ID[:6], nil},
		{"  " + cp.ID[:6] + "\n", nil},
		{cp.ID[:3], ErrNotFound}, // too short to be a prefix
		{"ffffffffffff0", ErrNotFound},
		{"", ErrNotFound},
	}
	for _, tc := range cases {
		if _, err := p.store.Restore(context.Background(), tc.id); !errors.Is(err, tc.want) && !(tc.want == nil && err == nil) {
			t.Errorf("Restore(%q) error = %v, want %v", tc.id, err, tc.want)
		}
	}
}

func TestConcurrentSaves(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"a": "1"}, bc.opts...)
			// A second Store on the same state directory, as another process
			// would have.
			other, err := Open(p.state, p.root, nil, bc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			const n = 6
			var wg sync.WaitGroup
			errs := make(chan error, 2*n)
			for i := range 2 * n {
				s := p.store
				if i%2 == 1 {
					s = other
				}
				wg.Go(func() {
					_, err := s.Save(context.Background(), "concurrent", []string{"a"})
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Errorf("Save: %v", err)
				}
			}
			ids := map[string]bool{}
			for _, cp := range p.list() {
				ids[cp.ID] = true
			}
			if len(ids) != 2*n {
				t.Errorf("List has %d distinct checkpoints, want %d", len(ids), 2*n)
			}
		})
	}
}

func TestRestoreStaysInsideRoot(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"sub/f.txt": "inside"}, bc.opts...)
			outside := filepath.Join(filepath.Dir(p.root), "outside")
			if err := os.MkdirAll(outside, 0o755); err != nil {
				t.Fatal(err)
			}
			cp := p.save("edit", "sub/f.txt")
			os.RemoveAll(p.path("sub"))
			if err := os.Symlink(outside, p.path("sub")); err != nil {
				t.Skip("symlinks unsupported:", err)
			}
			// The file store names only sub/f.txt, not the symlink, so it
			// refuses; git holds the symlink and replaces it.
			_, err := p.store.Restore(context.Background(), cp.ID)
			if des, _ := os.ReadDir(outside); len(des) != 0 {
				t.Errorf("restore wrote outside the root: %v", des)
			}
			if bc.backend == BackendGit && (err != nil || p.read("sub/f.txt") != "inside") {
				t.Errorf("git restore: %v, sub/f.txt = %q", err, p.read("sub/f.txt"))
			}
			if bc.backend == BackendFiles && err == nil {
				t.Error("file-store restore through a symlink leading out succeeded")
			}
		})
	}
}

func TestLargeNamedFilesKept(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			big := strings.Repeat("B", 200)
			p := newProject(t, map[string]string{"big.bin": big, "small.txt": "s", "other.bin": big},
				append(bc.opts, WithMaxFileSize(100))...)
			cp := p.save("edit", "big.bin", "small.txt")
			if len(cp.Skipped) != 0 || !slices.Equal(cp.Paths, []string{"big.bin", "small.txt"}) {
				t.Errorf("Skipped = %v, Paths = %v; want none, [big.bin small.txt]", cp.Skipped, cp.Paths)
			}
			p.write("big.bin", big+"more")
			p.write("small.txt", "t")
			p.write("other.bin", big+"other") // untracked, too large and not named: left out
			p.restore(cp.ID)
			if p.read("big.bin") != big || p.read("small.txt") != "s" || p.read("other.bin") != big+"other" {
				t.Errorf("after restore big.bin has %d bytes, small.txt=%q, other.bin has %d bytes",
					len(p.read("big.bin")), p.read("small.txt"), len(p.read("other.bin")))
			}
		})
	}
}

func TestStateDir(t *testing.T) {
	base := t.TempDir()
	root := t.TempDir()
	a, b := StateDir(base, root), StateDir(base, root+string(filepath.Separator)+".")
	if a != b || filepath.Dir(a) != base || len(filepath.Base(a)) != 16 {
		t.Errorf("StateDir = %q and %q, want one 16-digit directory under %s", a, b, base)
	}
	if StateDir(base, t.TempDir()) == a {
		t.Error("two projects share a state directory")
	}
}

func TestSaveNamedPathUnderAFile(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"a.txt": "file"}, bc.opts...)
			cp := p.save("odd", "a.txt/child")
			if !slices.Equal(cp.Paths, []string{"a.txt/child"}) {
				t.Errorf("Paths = %v, want [a.txt/child]", cp.Paths)
			}
			p.write("a.txt", "changed")
			p.restore(cp.ID)
			if bc.backend == BackendGit && p.read("a.txt") != "file" {
				t.Errorf("a.txt = %q, want file", p.read("a.txt"))
			}
		})
	}
}

func TestStateDirOfAnotherProjectRefused(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"a": "1"}, bc.opts...)
			cp := p.save("edit", "a")
			otherRoot := t.TempDir()
			os.WriteFile(filepath.Join(otherRoot, "keep.txt"), []byte("mine"), 0o644)
			other, err := Open(p.state, otherRoot, nil, bc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if _, err := other.Save(ctx, "x", nil); !errors.Is(err, ErrOtherProject) {
				t.Errorf("Save: %v, want ErrOtherProject", err)
			}
			if _, err := other.List(ctx); !errors.Is(err, ErrOtherProject) {
				t.Errorf("List: %v, want ErrOtherProject", err)
			}
			if _, err := other.Restore(ctx, cp.ID); !errors.Is(err, ErrOtherProject) {
				t.Errorf("Restore: %v, want ErrOtherProject", err)
			}
			if data, _ := os.ReadFile(filepath.Join(otherRoot, "keep.txt")); string(data) != "mine" {
				t.Errorf("the other project's file changed: %q", data)
			}
			if got := p.list(); len(got) != 1 {
				t.Errorf("owner's List = %d checkpoints, want 1", len(got))
			}
		})
	}
}
