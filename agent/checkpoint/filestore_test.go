package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRestoringOlderCheckpointUndoesLaterChanges(t *testing.T) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) {
			bc.skipWithoutGit(t)
			p := newProject(t, map[string]string{"a.txt": "a1", ".gitignore": "*.tmp\n"}, bc.opts...)
			first := p.save("edit a", "a.txt")
			p.write("a.txt", "a2")
			p.save("create b", "b.txt")
			p.write("b.txt", "b")
			p.save("create c.tmp", "c.tmp")
			p.write("c.tmp", "ignored but named")
			p.save("edit a again", "a.txt")
			p.write("a.txt", "a3")
			p.restore(first.ID)
			if p.read("a.txt") != "a1" || p.exists("b.txt") || p.exists("c.tmp") {
				t.Errorf("a=%q b exists=%v c.tmp exists=%v; want a1 and no b, no c.tmp",
					p.read("a.txt"), p.exists("b.txt"), p.exists("c.tmp"))
			}
		})
	}
}

func TestFilesLeftoversOfACrashAreIgnored(t *testing.T) {
	p := newProject(t, map[string]string{"a": "1"}, WithoutGit())
	cp := p.save("good", "a")
	dir := filepath.Join(p.state, "files")
	leftovers := map[string]string{
		"manifests/.000000000002-abc.json.tmp-123": "{partial",
		"objects/.tmp-456":                         "partial object",
		"manifests/000000000002-0123456789ab.json": "{not json",
	}
	for name, content := range leftovers {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got := p.list()
	if len(got) != 1 || got[0].ID != cp.ID {
		t.Fatalf("List = %+v, want only %s", got, cp.ID)
	}
	p.write("a", "2")
	next := p.save("after crash", "a")
	p.restore(cp.ID)
	if p.read("a") != "1" {
		t.Errorf("a = %q, want 1", p.read("a"))
	}
	if ids := p.list(); len(ids) != 3 || ids[1].ID != next.ID {
		t.Errorf("List = %+v, want the undo checkpoint, %s and %s", ids, next.ID, cp.ID)
	}
}

func TestFilesDamagedManifest(t *testing.T) {
	cases := map[string]string{
		"bad hash":   `{"v":1,"seq":1,"label":"x","entries":[{"path":"a","kind":"file","perm":420,"hash":"zz"}]}`,
		"bad path":   `{"v":1,"seq":1,"label":"x","entries":[{"path":"../escape","kind":"absent"}]}`,
		"git path":   `{"v":1,"seq":1,"label":"x","entries":[{"path":".git/HEAD","kind":"absent"}]}`,
		"no object":  `{"v":1,"seq":1,"label":"x","entries":[{"path":"a","kind":"file","perm":420,"hash":"` + strings.Repeat("ab", 32) + `"}]}`,
		"bad kind":   `{"v":1,"seq":1,"label":"x","entries":[{"path":"a","kind":"fifo"}]}`,
		"empty path": `{"v":1,"seq":1,"label":"x","entries":[{"path":"","kind":"absent"}]}`,
	}
	for name, js := range cases {
		t.Run(name, func(t *testing.T) {
			p := newProject(t, map[string]string{"a": "1"}, WithoutGit())
			dir := filepath.Join(p.state, "files", "manifests")
			os.MkdirAll(dir, 0o700)
			if err := os.WriteFile(filepath.Join(dir, "000000000001-0123456789ab.json"), []byte(js), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := p.store.Restore(context.Background(), "0123456789ab")
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("Restore error = %v, want ErrCorrupt", err)
			}
			if p.read("a") != "1" {
				t.Errorf("a = %q, want it untouched", p.read("a"))
			}
		})
	}
}

func TestFilesDirectoryEntries(t *testing.T) {
	p := newProject(t, map[string]string{"keep/x": "x"}, WithoutGit())
	cp := p.save("mkdir", "newdir", "emptydir", "keep")
	p.write("newdir/user.txt", "user data")
	os.Mkdir(p.path("emptydir"), 0o755)
	os.RemoveAll(p.path("keep"))
	res := p.restore(cp.ID)
	if p.read("newdir/user.txt") != "user data" {
		t.Error("a non-empty directory that was absent lost its content")
	}
	if p.exists("emptydir") {
		t.Error("an empty directory that was absent was not removed")
	}
	if fi, err := os.Stat(p.path("keep")); err != nil || !fi.IsDir() {
		t.Errorf("directory keep was not recreated: %v", err)
	}
	if len(res.Removed) != 1 || res.Removed[0] != "emptydir" {
		t.Errorf("Removed = %v, want [emptydir]", res.Removed)
	}
}
