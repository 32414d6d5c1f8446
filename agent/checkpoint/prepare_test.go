package checkpoint

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// gatedGit writes a git wrapper that, while the returned gate file
// exists, holds every `git status` (the background preparation's long
// step) until the gate goes, after creating the reached file.
func gatedGit(t *testing.T) (bin, gate, reached string) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	gate, reached = filepath.Join(dir, "gate"), filepath.Join(dir, "reached")
	script := fmt.Sprintf("#!/bin/sh\nfor a; do\n  if [ \"$a\" = status ] && [ -e %q ]; then\n    : > %q\n    while [ -e %q ]; do sleep 0.01; done\n  fi\ndone\nexec %q \"$@\"\n",
		gate, reached, gate, real)
	bin = filepath.Join(dir, "git")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return bin, gate, reached
}

// waitFile waits until name exists (the test's deadline bounds it).
func waitFile(t *testing.T, name string) {
	t.Helper()
	for {
		if _, err := os.Stat(name); err == nil {
			return
		}
		if err := exec.Command("sleep", "0.01").Run(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPrepareInBackground opens a store, starts its preparation and takes
// the first checkpoints with the preparation still held in git status
// (so Prepare returned without waiting for it, and an edit's checkpoint
// does not wait either) or after it finished; each checkpoint restores
// the content from before the change.
func TestPrepareInBackground(t *testing.T) {
	for _, finished := range []bool{false, true} {
		t.Run(fmt.Sprintf("finished=%v", finished), func(t *testing.T) {
			t.Parallel()
			bin, gate, reached := gatedGit(t)
			p := newProject(t, map[string]string{"a.txt": "a", "dir/b.txt": "b"}, WithGit(bin))
			stop := p.store.Prepare(context.Background())
			defer stop()
			waitFile(t, reached) // the preparation runs, held in git status
			if finished {
				os.Remove(gate)
				if err := p.store.awaitPrep(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := p.store.SaveFiles(context.Background(), "before edit", []string{"a.txt"}); err != nil {
				t.Fatalf("SaveFiles: %v", err)
			}
			fileCP := p.list()[0]
			p.write("a.txt", "edited")
			p.restore(fileCP.ID)
			p.expect(map[string]string{"a.txt": "a"})
			os.Remove(gate) // a whole-tree Save waits for a running preparation
			whole := p.save("before a command")
			p.write("dir/b.txt", "changed by a command")
			p.write("dir/new.txt", "new")
			p.restore(whole.ID)
			p.expect(map[string]string{"a.txt": "a", "dir/b.txt": "b", "dir/new.txt": "<absent>"})
		})
	}
}
