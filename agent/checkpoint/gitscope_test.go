package checkpoint

import (
	"context"
	"os"
	"slices"
	"testing"
)

func (p *project) saveFiles(label string, paths ...string) Checkpoint {
	p.t.Helper()
	cp, err := p.store.SaveFiles(context.Background(), label, paths)
	if err != nil {
		p.t.Fatalf("SaveFiles(%q): %v", label, err)
	}
	return cp
}

// saveFilesCase is a sequence of saves and changes, the checkpoint to
// restore and the files expected after restoring it.
type saveFilesCase struct {
	name    string
	gitOnly bool                    // whole-tree snapshots: the file backend keeps named paths only
	run     func(p *project) string // returns the checkpoint to restore
	want    map[string]string
}

// saveFilesCases: checkpoints of named paths only, alone or mixed with
// snapshots of the whole work tree, restore what the agent changed and
// nothing the user changed meanwhile that no snapshot knows.
func saveFilesCases() []saveFilesCase {
	return []saveFilesCase{{
		name: "an edit is undone and the user's other changes stay",
		run: func(p *project) string {
			cp := p.saveFiles("edit a", "a.txt")
			p.write("a.txt", "agent")
			p.write("b.txt", "user")
			return cp.ID
		},
		want: map[string]string{"a.txt": "a", "b.txt": "user"},
	}, {
		name: "each path comes back from the oldest checkpoint naming it",
		run: func(p *project) string {
			cp := p.saveFiles("edit a", "a.txt")
			p.write("a.txt", "a2")
			p.saveFiles("edit a and create c", "a.txt", "c.txt")
			p.write("a.txt", "a3")
			p.write("c.txt", "c")
			return cp.ID
		},
		want: map[string]string{"a.txt": "a", "c.txt": "<absent>", "b.txt": "b"},
	}, {
		name:    "a later whole-tree snapshot brings back what a command changed",
		gitOnly: true,
		run: func(p *project) string {
			cp := p.saveFiles("edit a", "a.txt")
			p.write("a.txt", "agent")
			p.save("shell")
			p.write("b.txt", "command")
			p.write("dir/new.txt", "command")
			os.Remove(p.path("gone.txt"))
			return cp.ID
		},
		want: map[string]string{"a.txt": "a", "b.txt": "b", "dir/new.txt": "<absent>", "dir": "<absent>", "gone.txt": "g"},
	}, {
		name:    "an edit after a whole-tree snapshot",
		gitOnly: true,
		run: func(p *project) string {
			cp := p.save("shell")
			p.write("b.txt", "command")
			p.saveFiles("edit a", "a.txt")
			p.write("a.txt", "agent")
			return cp.ID
		},
		want: map[string]string{"a.txt": "a", "b.txt": "b"},
	}, {
		name: "a deleted file comes back, a created one goes",
		run: func(p *project) string {
			cp := p.saveFiles("edit", "gone.txt", "new/deep/x.txt")
			os.Remove(p.path("gone.txt"))
			p.write("new/deep/x.txt", "x")
			return cp.ID
		},
		want: map[string]string{"gone.txt": "g", "new": "<absent>"},
	}}
}

func TestSaveFilesScenarios(t *testing.T) {
	for _, bc := range backends(t) {
		for _, tc := range saveFilesCases() {
			t.Run(bc.name+"/"+tc.name, func(t *testing.T) {
				bc.skipWithoutGit(t)
				if tc.gitOnly && bc.backend != BackendGit {
					t.Skip("the file backend keeps named paths only")
				}
				files := map[string]string{"a.txt": "a", "b.txt": "b", "gone.txt": "g"}
				p := newProject(t, files, bc.opts...)
				id := tc.run(p)
				before := map[string]string{}
				for name := range tc.want {
					if fi, err := os.Stat(p.path(name)); err != nil || !fi.IsDir() {
						before[name] = p.read(name)
					}
				}
				res := p.restore(id)
				p.expect(tc.want)
				p.restore(res.Undo.ID)
				p.expect(before)
			})
		}
	}
}

func TestSaveFilesHoldsOnlyNamedPaths(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"a.txt": "a", "b.txt": "b", "sub/c.txt": "c"})
	cp := p.saveFiles("edit", "sub/c.txt", "absent.txt")
	if !cp.PathsOnly || !slices.Equal(cp.Paths, []string{"absent.txt", "sub/c.txt"}) {
		t.Fatalf("PathsOnly = %v, Paths = %v", cp.PathsOnly, cp.Paths)
	}
	got := projectGit(t, p.root, "--git-dir="+p.state+"/git", "ls-tree", "-r", "--name-only", cp.ID)
	if got != "sub/c.txt\n" {
		t.Errorf("checkpoint tree holds %q, want only sub/c.txt", got)
	}
	if list := p.list(); len(list) != 1 || !list[0].PathsOnly || list[0].ID != cp.ID {
		t.Errorf("List = %+v", list)
	}
}
