package checkpoint

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// committedProject is a project whose files are committed in its own git
// repository.
func committedProject(t *testing.T, files map[string]string, opts ...Option) *project {
	t.Helper()
	requireGit(t)
	p := newProject(t, files, opts...)
	projectGit(t, p.root, "init", "-q")
	projectGit(t, p.root, "add", "-A")
	projectGit(t, p.root, "commit", "-q", "-m", "init")
	settle(t, p.root)
	return p
}

// settle dates the work tree's files an hour back and refreshes the
// index, so that no entry is racily clean (git smudges those, and they
// would be read again whatever the seed).
func settle(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	projectGit(t, root, "update-index", "-q", "--refresh")
}

// shadowHas reports whether the shadow repository's own store holds the
// object, without borrowing.
func (p *project) shadowHas(oid string) bool {
	cmd := exec.Command("git", "--git-dir="+filepath.Join(p.state, "git"), "cat-file", "-e", oid)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	return cmd.Run() == nil
}

func TestGitSeedKeepsTheWorkTreeExactly(t *testing.T) {
	big := strings.Repeat("G", 300)
	p := committedProject(t, map[string]string{"same.txt": "same", "staged.txt": "s1", "assumed.txt": "u1",
		"modified.txt": "m1", "big.bin": big}, WithMaxFileSize(100))
	p.write("staged.txt", "s2")
	projectGit(t, p.root, "add", "staged.txt")
	p.write("staged.txt", "s3")
	projectGit(t, p.root, "update-index", "--assume-unchanged", "assumed.txt")
	p.write("assumed.txt", "u2")
	p.write("modified.txt", "m2")
	p.write("untracked.txt", "n")
	before := treeDigest(t, p.path(".git"))
	cp := p.save("shell")
	sameBlob := strings.TrimSpace(projectGit(t, p.root, "rev-parse", "HEAD:same.txt"))
	if p.shadowHas(sameBlob) {
		t.Error("the committed, unchanged file was hashed again into the shadow store")
	}
	for _, name := range []string{"same.txt", "staged.txt", "assumed.txt", "modified.txt", "untracked.txt"} {
		p.write(name, "changed")
	}
	p.write("big.bin", "small now")
	p.restore(cp.ID)
	p.expect(map[string]string{"same.txt": "same", "staged.txt": "s3", "assumed.txt": "u2",
		"modified.txt": "m2", "untracked.txt": "n", "big.bin": big})
	if treeDigest(t, p.path(".git")) != before {
		t.Error("the project's .git changed")
	}
}

func TestGitSeedPrunedContentFailsBeforeChangingAnything(t *testing.T) {
	p := committedProject(t, map[string]string{"a.txt": "v1", "b.txt": "b1"})
	p.write("0.txt", "untracked, so in the shadow store")
	cp := p.save("shell")
	p.write("0.txt", "changed")
	p.write("new.txt", "created")
	p.write("a.txt", "v2")
	p.write("b.txt", "b2")
	projectGit(t, p.root, "commit", "-q", "--amend", "-a", "-m", "amended")
	projectGit(t, p.root, "reflog", "expire", "--expire-unreachable=now", "--all")
	projectGit(t, p.root, "gc", "-q", "--prune=now")
	_, err := p.store.Restore(context.Background(), cp.ID)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Restore after the content was pruned: %v, want ErrCorrupt", err)
	}
	p.expect(map[string]string{"0.txt": "changed", "new.txt": "created", "a.txt": "v2", "b.txt": "b2"})
}

func TestGitSeedFromAWorktreeWithALockedIndex(t *testing.T) {
	main := committedProject(t, map[string]string{"a.txt": "a", "b.txt": "b"})
	wt := filepath.Join(filepath.Dir(main.root), "wt")
	projectGit(t, main.root, "worktree", "add", "-q", wt)
	settle(t, wt)
	gitDir, _ := GitDirOf(filepath.Join(wt, ".git"))
	if err := os.WriteFile(filepath.Join(gitDir, "index.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open(filepath.Join(t.TempDir(), "state"), wt, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, root: wt, state: s.stateDir, store: s}
	cp := p.save("shell")
	if p.shadowHas(strings.TrimSpace(projectGit(t, wt, "rev-parse", "HEAD:a.txt"))) {
		t.Error("the worktree's committed file was hashed again: the index was not seeded")
	}
	p.write("a.txt", "changed")
	p.write("c.txt", "new")
	p.restore(cp.ID)
	p.expect(map[string]string{"a.txt": "a", "b.txt": "b", "c.txt": "<absent>"})
}

func TestGitWorktreeHonoursTheMainInfoExclude(t *testing.T) {
	main := committedProject(t, map[string]string{"a.txt": "a"})
	if err := os.WriteFile(main.path(".git/info/exclude"), []byte("*.dat\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(filepath.Dir(main.root), "wt")
	projectGit(t, main.root, "worktree", "add", "-q", wt)
	s, err := Open(filepath.Join(t.TempDir(), "state"), wt, testLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	p := &project{t: t, root: wt, state: s.stateDir, store: s}
	p.write("local.dat", "mine")
	cp := p.save("shell")
	p.write("local.dat", "changed")
	p.restore(cp.ID)
	if got := p.read("local.dat"); got != "changed" {
		t.Errorf("local.dat = %q: a file the project's info/exclude ignores was restored", got)
	}
}

func TestGitSeedWithASubmoduleLeavesItAlone(t *testing.T) {
	requireGit(t)
	sub := t.TempDir()
	projectGit(t, sub, "init", "-q")
	if err := os.WriteFile(filepath.Join(sub, "lib.go"), []byte("lib v1"), 0o644); err != nil {
		t.Fatal(err)
	}
	projectGit(t, sub, "add", "-A")
	projectGit(t, sub, "commit", "-q", "-m", "lib")
	p := committedProject(t, map[string]string{"main.go": "v1"})
	projectGit(t, p.root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "deps/lib")
	projectGit(t, p.root, "commit", "-q", "-m", "add submodule")
	settle(t, p.root)
	cp := p.save("shell")
	p.write("main.go", "v2")
	p.write("deps/lib/lib.go", "lib changed")
	p.restore(cp.ID)
	p.expect(map[string]string{"main.go": "v1", "deps/lib/lib.go": "lib changed"})
}

func TestReadHead(t *testing.T) {
	const id = "0123456789abcdef0123456789abcdef01234567"
	tests := []struct {
		name   string
		files  map[string]string // below a temporary folder: git/… and common/…
		want   string
		wantOK bool
	}{
		{"detached", map[string]string{"git/HEAD": id + "\n"}, id, true},
		{"branch", map[string]string{"git/HEAD": "ref: refs/heads/main\n", "git/refs/heads/main": id + "\n"}, id, true},
		{"branch of a worktree, in the common directory", map[string]string{"git/HEAD": "ref: refs/heads/topic\n", "common/refs/heads/topic": id}, id, true},
		{"packed branch is left to git", map[string]string{"git/HEAD": "ref: refs/heads/main\n", "common/packed-refs": id + " refs/heads/main\n"}, "", false},
		{"unborn branch is left to git", map[string]string{"git/HEAD": "ref: refs/heads/main\n"}, "", false},
		{"SHA-256 is left to git", map[string]string{"git/HEAD": strings.Repeat("ab", 32) + "\n"}, "", false},
		{"a ref outside refs/heads is left to git", map[string]string{"git/HEAD": "ref: refs/heads/../../x\n", "x": id}, "", false},
		{"no HEAD", nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, ok := readHead(filepath.Join(dir, "git"), filepath.Join(dir, "common"))
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("readHead = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
