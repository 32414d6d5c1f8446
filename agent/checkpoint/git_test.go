package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestGitSnapshotCoversUnnamedChanges(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"a.txt": "a", "dir/b.txt": "b", "gone.txt": "g"})
	cp := p.save("shell: make") // a shell command names no paths
	p.write("a.txt", "A")
	p.write("dir/c.txt", "c")
	os.Remove(p.path("gone.txt"))
	res := p.restore(cp.ID)
	if p.read("a.txt") != "a" || p.exists("dir/c.txt") || p.read("gone.txt") != "g" || p.read("dir/b.txt") != "b" {
		t.Errorf("after restore: a=%q c exists=%v gone=%q", p.read("a.txt"), p.exists("dir/c.txt"), p.read("gone.txt"))
	}
	slices.Sort(res.Written)
	if !slices.Equal(res.Written, []string{"a.txt", "gone.txt"}) || !slices.Equal(res.Removed, []string{"dir/c.txt"}) {
		t.Errorf("Written %v Removed %v", res.Written, res.Removed)
	}
}

func TestGitIgnoresUserEnvironment(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"crlf.txt": "one\r\ntwo\r\n", "lf.txt": "one\ntwo\n",
		".gitattributes": "* text eol=crlf\n*.txt filter=evil ident\n"})
	projectGit(t, p.root, "init", "-q")
	userCfg := filepath.Join(t.TempDir(), "gitconfig")
	os.WriteFile(userCfg, []byte("[core]\n\tautocrlf = true\n[filter \"evil\"]\n\tclean = false\n\tsmudge = false\n\trequired = true\n"), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", userCfg)
	t.Setenv("GIT_DIR", p.path(".git"))
	t.Setenv("GIT_INDEX_FILE", p.path(".git/index"))
	before := treeDigest(t, p.path(".git"))
	cp := p.save("edit", "crlf.txt", "lf.txt")
	if cp.Backend != BackendGit {
		t.Fatalf("Backend = %s, want git", cp.Backend)
	}
	p.write("crlf.txt", "x")
	p.write("lf.txt", "y")
	p.restore(cp.ID)
	if p.read("crlf.txt") != "one\r\ntwo\r\n" || p.read("lf.txt") != "one\ntwo\n" {
		t.Errorf("line endings changed: crlf=%q lf=%q", p.read("crlf.txt"), p.read("lf.txt"))
	}
	if treeDigest(t, p.path(".git")) != before {
		t.Error("the project's .git changed")
	}
}

func TestGitStaleLocksAreCleared(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"a": "1"})
	p.save("first", "a")
	for _, name := range []string{"index.lock", filepath.FromSlash(checkpointRef) + ".lock"} {
		if err := os.WriteFile(filepath.Join(p.state, "git", name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p.write("a", "2")
	cp := p.save("after crash", "a")
	if cp.Backend != BackendGit {
		t.Fatalf("Backend = %s after stale locks, want git", cp.Backend)
	}
	if got := p.list(); len(got) != 2 {
		t.Errorf("List has %d checkpoints, want 2", len(got))
	}
}

func TestGitNestedRepositoryLeftAlone(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"main.go": "v1", "vendor/dep/x.go": "x"})
	projectGit(t, p.path("vendor/dep"), "init", "-q") // no commits: git add would refuse it
	cp := p.save("edit", "main.go", "vendor/dep/x.go")
	if cp.Backend != BackendGit || !slices.Equal(cp.Skipped, []string{"vendor/dep/x.go"}) {
		t.Fatalf("Backend = %s, Skipped = %v; want git and the nested file skipped", cp.Backend, cp.Skipped)
	}
	p.write("main.go", "v2")
	p.write("vendor/dep/x.go", "changed")
	p.write("vendor/dep/y.go", "new")
	p.restore(cp.ID)
	if p.read("main.go") != "v1" || p.read("vendor/dep/x.go") != "changed" || !p.exists("vendor/dep/y.go") {
		t.Errorf("main.go=%q, nested x.go=%q y.go exists=%v", p.read("main.go"), p.read("vendor/dep/x.go"), p.exists("vendor/dep/y.go"))
	}
}

func TestGitUnusualNames(t *testing.T) {
	requireGit(t)
	names := []string{"with space.txt", "star*.txt", "q?.txt", "br[a]ck.txt", "-dash.txt", "ünï cödé.txt", "#hash", "!bang", "trailing "}
	files := map[string]string{"big [1] *.bin": strings.Repeat("x", 200)}
	for _, n := range names {
		files[n] = "old " + n
	}
	p := newProject(t, files, WithMaxFileSize(100))
	p.write(".gitignore", "*.log\n")
	cp := p.save("edit", append(names, "new [x].log")...)
	if cp.Backend != BackendGit {
		t.Fatalf("Backend = %s, want git", cp.Backend)
	}
	for _, n := range names {
		p.write(n, "new")
	}
	p.write("new [x].log", "created")
	p.write("big [1] *.bin", "small now")
	p.restore(cp.ID)
	for _, n := range names {
		if got := p.read(n); got != "old "+n {
			t.Errorf("%q = %q, want the old content", n, got)
		}
	}
	if p.exists("new [x].log") {
		t.Error("named ignored file created after the checkpoint was not removed")
	}
	if got := p.read("big [1] *.bin"); got != "small now" {
		t.Errorf("large untracked file = %q, want it left alone", got)
	}
}

func TestGitDirectoryAndFileSwap(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"x/a.txt": "a", "y": "file y"})
	cp := p.save("edit")
	os.RemoveAll(p.path("x"))
	p.write("x", "now a file")
	os.Remove(p.path("y"))
	p.write("y/inner.txt", "now a dir")
	p.restore(cp.ID)
	if p.read("x/a.txt") != "a" || p.read("y") != "file y" {
		t.Errorf("x/a.txt=%q y=%q", p.read("x/a.txt"), p.read("y"))
	}
}

func TestGitMissingFallsBackToFiles(t *testing.T) {
	p := newProject(t, map[string]string{"a": "1"}, WithGit(filepath.Join(t.TempDir(), "no-such-git")))
	cp := p.save("edit", "a")
	if cp.Backend != BackendFiles {
		t.Fatalf("Backend = %s, want files", cp.Backend)
	}
	p.write("a", "2")
	p.restore(cp.ID)
	if p.read("a") != "1" {
		t.Errorf("a = %q, want 1", p.read("a"))
	}
	if _, err := os.Stat(filepath.Join(p.state, "git")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a shadow repository was created without git: %v", err)
	}
}

func TestGitFailureFallsBackAndListsBoth(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"a": "1"})
	first := p.save("git one", "a")
	if err := os.WriteFile(filepath.Join(p.state, "git", "HEAD"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	p.write("a", "2")
	second := p.save("after breakage", "a")
	if first.Backend != BackendGit || second.Backend != BackendFiles {
		t.Fatalf("backends %s then %s, want git then files", first.Backend, second.Backend)
	}
	p.write("a", "3")
	p.restore(second.ID)
	if p.read("a") != "2" {
		t.Errorf("a = %q, want 2", p.read("a"))
	}
}

func TestSaveCancelled(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"a": "1"}, bc.opts...)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if _, err := p.store.Save(ctx, "cancelled", []string{"a"}); !errors.Is(err, context.Canceled) {
				t.Errorf("Save with a cancelled context: %v, want context.Canceled", err)
			}
			if cp := p.save("later", "a"); cp.Backend != bc.backend {
				t.Errorf("after a cancelled save the backend is %s, want %s", cp.Backend, bc.backend)
			}
		})
	}
}

func TestGitHonoursProjectInfoExclude(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"main.go": "v1", "local.dat": "mine"})
	projectGit(t, p.root, "init", "-q")
	if err := os.WriteFile(p.path(".git/info/exclude"), []byte("*.dat\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cp := p.save("edit", "main.go")
	p.write("main.go", "v2")
	p.write("local.dat", "changed")
	p.write("other.dat", "new")
	p.restore(cp.ID)
	if p.read("main.go") != "v1" || p.read("local.dat") != "changed" || p.read("other.dat") != "new" {
		t.Errorf("main.go=%q local.dat=%q other.dat=%q", p.read("main.go"), p.read("local.dat"), p.read("other.dat"))
	}
}

func TestGitRestoreOverLargeFileIsUndoable(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"data.bin": "small"}, WithMaxFileSize(100))
	cp := p.save("edit")
	os.Remove(p.path("data.bin"))
	p.save("between") // data.bin leaves the snapshot
	large := strings.Repeat("L", 500)
	p.write("data.bin", large) // untracked and too large: left out
	res := p.restore(cp.ID)
	if got := p.read("data.bin"); got != "small" {
		t.Fatalf("data.bin = %q, want the checkpoint's content", got)
	}
	p.restore(res.Undo.ID)
	if got := p.read("data.bin"); got != large {
		t.Errorf("after undoing the restore data.bin has %d bytes, want the %d-byte file back", len(got), len(large))
	}
}
