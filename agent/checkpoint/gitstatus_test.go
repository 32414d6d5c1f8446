package checkpoint

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseStatus(t *testing.T) {
	tests := []struct {
		name               string
		out                string
		changed, untracked []string
	}{
		{"empty", "", nil, nil},
		{"staged only is not a work-tree change",
			"1 A. N... 000000 100644 100644 0000000000000000000000000000000000000000 e69de29bb2d1d6434b8b29ae775ad8c2e48c5391 new file\x00", nil, nil},
		{"modified, deleted and retyped",
			"1 .M N... 100644 100644 100644 a a a.txt\x001 .D N... 100644 100644 000000 a a dir/b c\x001 AT N... 000000 120000 100644 a a l\x00",
			[]string{"a.txt", "dir/b c", "l"}, nil},
		{"untracked and nested repository",
			"? new file.txt\x00? nested/\x00", nil, []string{"new file.txt", "nested/"}},
		{"rename skips the original path",
			"2 RM N... 100644 100644 100644 a a R100 new\x00old\x00? u\x00", []string{"new"}, []string{"u"}},
		{"unmerged",
			"u UU N... 100644 100644 100644 100644 a b c both.txt\x00", []string{"both.txt"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changed, untracked := parseStatus([]byte(tt.out))
			if !slices.Equal(changed, tt.changed) || !slices.Equal(untracked, tt.untracked) {
				t.Errorf("parseStatus = %q, %q; want %q, %q", changed, untracked, tt.changed, tt.untracked)
			}
		})
	}
}

// TestGitLaterSnapshotsSeeEveryChange takes whole-tree snapshots with and
// without changes between them (git's untracked cache and the recorded
// index tree then skip work) and checks that each one restores exactly.
func TestGitLaterSnapshotsSeeEveryChange(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"a.txt": "a", "dir/sub/b.txt": "b", ".gitignore": "*.log\n"})
	first := p.save("first")
	same := p.save("nothing changed")
	p.write("dir/sub/new.txt", "new")   // a new file deep down: only its directory changed
	p.write("a.txt", "A")               // same directory entries, new content
	p.write("dir/sub/x.log", "ignored") // ignored: never in a snapshot
	third := p.save("third")
	p.write("dir/sub/new.txt", "changed")
	os.Remove(p.path("a.txt"))
	p.write("dir/other.txt", "other")
	p.restore(third.ID)
	p.expect(map[string]string{"a.txt": "A", "dir/sub/b.txt": "b", "dir/sub/new.txt": "new", "dir/sub/x.log": "ignored"})
	if p.exists("dir/other.txt") {
		t.Error("dir/other.txt, created after the snapshot, is still there")
	}
	p.restore(same.ID)
	p.expect(map[string]string{"a.txt": "a", "dir/sub/b.txt": "b", "dir/sub/x.log": "ignored"})
	if p.exists("dir/sub/new.txt") {
		t.Error("dir/sub/new.txt, created after the snapshot, is still there")
	}
	if first.ID == same.ID {
		t.Error("a snapshot of an unchanged tree reused the previous checkpoint")
	}
	index, err := os.ReadFile(filepath.Join(p.state, "git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(index, []byte("UNTR")) {
		t.Error("the shadow index holds no untracked cache: every snapshot reads every directory again")
	}
}

func TestGitLargeUntrackedFileThatShrinksIsTaken(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{"a.txt": "a"}, WithMaxFileSize(100))
	p.write("data.bin", strings.Repeat("L", 500))
	if cp := p.save("large"); !slices.Contains(cp.excluded, "data.bin") {
		t.Fatalf("excluded = %q, want data.bin left out", cp.excluded)
	}
	p.write("data.bin", "small")
	cp := p.save("small")
	if slices.Contains(cp.excluded, "data.bin") {
		t.Fatalf("excluded = %q: the file that shrank is still left out", cp.excluded)
	}
	p.write("data.bin", "changed")
	p.restore(cp.ID)
	if got := p.read("data.bin"); got != "small" {
		t.Errorf("data.bin = %q, want the snapshot's %q", got, "small")
	}
}
