package bench

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"companion/agent/checkpoint"
)

// treeEnv names a git work tree the checkpoint benchmarks may edit (they
// put back what they change), such as a `git clone --shared` of the Linux
// tree. Without it they run on a generated tree of benchTreeFiles files.
const treeEnv = "COMPANION_BENCH_TREE"

// benchTreeFiles is the size of the generated tree.
const benchTreeFiles = 5000

// BenchmarkCheckpoint measures the checkpoints the agent takes and
// restores on a large committed tree, each timed back to back with
// `git status --porcelain` on the same tree (the machine is shared, so
// the ratio is the figure to compare): the first and a later edit
// (SaveFiles, then the write), the first and a later snapshot of the whole
// tree (Save, before a shell command), and restoring an edit, with and
// without a whole-tree snapshot since. Reports the medians in ms and
// their ratio to git status.
func BenchmarkCheckpoint(b *testing.B) {
	tree := os.Getenv(treeEnv)
	if tree == "" {
		tree = generatedRepo(b)
	}
	file := editTarget(b, tree)
	orig, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.WriteFile(file, orig, 0o644) })
	edit := func() {
		if err := os.WriteFile(file, append(slices.Clone(orig), "// edited\n"...), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	// A restore's floor is git putting the edited file back in the
	// project's own repository, from the same state.
	restoreFloor := func() map[string]time.Duration {
		floors := map[string]time.Duration{}
		for name, args := range map[string][]string{"checkout": {"checkout", "HEAD", "--", "."}, "read-tree": {"read-tree", "-u", "--reset", "HEAD"}} {
			edit()
			floors[name] = gitTime(b, tree, args...)
		}
		edit()
		return floors
	}
	cases := []struct {
		name  string
		setup func(st *checkpoint.Store) // untimed, on a fresh store
		op    func(st *checkpoint.Store)
		floor func() map[string]time.Duration // untimed, right before op
	}{
		{"edit/first", nil, func(st *checkpoint.Store) { saveFiles(b, st, file); edit() }, nil},
		{"edit/later", func(st *checkpoint.Store) { saveFiles(b, st, file) }, func(st *checkpoint.Store) { saveFiles(b, st, file); edit() }, nil},
		{"whole-tree/first", nil, func(st *checkpoint.Store) { save(b, st) }, nil},
		{"whole-tree/later", func(st *checkpoint.Store) { save(b, st); edit() }, func(st *checkpoint.Store) { save(b, st) }, nil},
		{"restore/edit", func(st *checkpoint.Store) { saveFiles(b, st, file); edit() }, func(st *checkpoint.Store) { restoreNewest(b, st, 0) }, restoreFloor},
		{"restore/across-whole-tree", func(st *checkpoint.Store) { saveFiles(b, st, file); edit(); save(b, st) },
			func(st *checkpoint.Store) { restoreNewest(b, st, 1) }, restoreFloor},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var ops, statuses []time.Duration
			floors := map[string][]time.Duration{}
			for range b.N {
				b.StopTimer()
				os.WriteFile(file, orig, 0o644)
				st := openStore(b, tree)
				if tc.setup != nil {
					tc.setup(st)
				}
				statuses = append(statuses, gitStatus(b, tree))
				if tc.floor != nil {
					for name, d := range tc.floor() {
						floors[name] = append(floors[name], d)
					}
				}
				b.StartTimer()
				start := time.Now()
				tc.op(st)
				ops = append(ops, time.Since(start))
			}
			b.StopTimer()
			os.WriteFile(file, orig, 0o644)
			op, status := median(ops), median(statuses)
			b.ReportMetric(ms(op), "ms-median")
			b.ReportMetric(ms(status), "ms-git-status")
			b.ReportMetric(float64(op)/float64(status), "x-git-status")
			for name, ds := range floors {
				b.ReportMetric(ms(median(ds)), "ms-git-"+name)
				b.ReportMetric(float64(op)/float64(median(ds)), "x-git-"+name)
			}
		})
	}
}

// openStore opens a Store on tree with a fresh state directory.
func openStore(b *testing.B, tree string) *checkpoint.Store {
	st, err := checkpoint.Open(filepath.Join(b.TempDir(), "state"), tree, nil)
	if err != nil {
		b.Fatal(err)
	}
	return st
}

func saveFiles(b *testing.B, st *checkpoint.Store, file string) {
	if cp, err := st.SaveFiles(context.Background(), "before edit", []string{file}); err != nil || cp.Backend != checkpoint.BackendGit {
		b.Fatalf("SaveFiles: %v (%s)", err, cp.Backend)
	}
}

func save(b *testing.B, st *checkpoint.Store) {
	if cp, err := st.Save(context.Background(), "before shell", nil); err != nil || cp.Backend != checkpoint.BackendGit {
		b.Fatalf("Save: %v (%s)", err, cp.Backend)
	}
}

// restoreNewest restores the checkpoint i places below the newest.
func restoreNewest(b *testing.B, st *checkpoint.Store, i int) {
	list, err := st.List(context.Background())
	if err != nil || len(list) <= i {
		b.Fatalf("List: %v, %d checkpoints", err, len(list))
	}
	if _, err := st.Restore(context.Background(), list[i].ID); err != nil {
		b.Fatalf("Restore: %v", err)
	}
}

// gitStatus times `git status --porcelain` in tree.
func gitStatus(b *testing.B, tree string) time.Duration {
	return gitTime(b, tree, "status", "--porcelain")
}

// gitTime times git with args in tree.
func gitTime(b *testing.B, tree string, args ...string) time.Duration {
	cmd := exec.Command("git", args...)
	cmd.Dir = tree
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %s: %v\n%s", args[0], err, out)
	}
	return time.Since(start)
}

// editTarget is the file the benchmarks edit: the tree's Makefile, or its
// first committed file.
func editTarget(b *testing.B, tree string) string {
	if fi, err := os.Stat(filepath.Join(tree, "Makefile")); err == nil && fi.Mode().IsRegular() {
		return filepath.Join(tree, "Makefile")
	}
	return filepath.Join(tree, "pkg000", "file00000.go")
}

// generatedRepo commits benchTreeFiles small files in a fresh repository.
func generatedRepo(b *testing.B) string {
	root := b.TempDir()
	for i := range benchTreeFiles {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", i%100))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		content := fmt.Appendf(nil, "package p\n\n// File %d.\nfunc F() int { return 1 }\n", i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("file%05d.go", i)), content, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour) // no racily clean index entries
	filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		if err == nil {
			os.Chtimes(p, old, old)
		}
		return err
	})
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "tree"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@b", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@b")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return root
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1e3 }
