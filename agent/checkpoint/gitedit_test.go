package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestEditTree checks editTree against git itself: every edit list must
// give the very tree (same id, so the same entries in git's order) that
// `update-index --index-info` on the base tree and write-tree give.
func TestEditTree(t *testing.T) {
	requireGit(t)
	p := newProject(t, map[string]string{
		"a.txt": "a", "a-b": "dash sorts before the directory a/", "a/x.txt": "x", "a/deep/y.txt": "y",
		"a/deep/z.txt": "z", "solo/only.txt": "only", "f": "a file", "with space/t\tab.txt": "tab",
		"new\nline/in.txt": "nl", "new\nline/sub/deep.txt": "deep",
	})
	b := p.store.git
	ctx := context.Background()
	if err := b.prepare(ctx); err != nil {
		t.Fatal(err)
	}
	base := writeProjectTree(t, b)
	blob := hashBlob(t, b, "new content")
	tests := []struct {
		name  string
		edits []change
		added []string
	}{
		{"modify a root file", []change{{path: "a.txt", mode: "100644", blob: blob}}, nil},
		{"new file in new directories", []change{{path: "n/e/w.txt", mode: "100644", blob: blob}}, []string{"n/e/w.txt"}},
		{"remove the only file of a directory", []change{{path: "solo/only.txt"}}, nil},
		{"remove a deep file, keep its sibling", []change{{path: "a/deep/y.txt"}}, nil},
		{"remove every file of a nested directory", []change{{path: "a/deep/y.txt"}, {path: "a/deep/z.txt"}, {path: "a/x.txt"}}, nil},
		{"a file replaces a directory", []change{{path: "a", mode: "100644", blob: blob}}, []string{"a"}},
		{"a directory replaces a file", []change{{path: "f/inner.txt", mode: "100644", blob: blob}}, []string{"f/inner.txt"}},
		{"removing a directory's path leaves it", []change{{path: "a"}}, nil},
		{"removing an absent path changes nothing", []change{{path: "no/such/file"}}, nil},
		{"executable bit and symlink", []change{{path: "a.txt", mode: "100755", blob: blob}, {path: "a/link", mode: "120000", blob: blob}}, []string{"a/link"}},
		{"names with spaces, tabs and a newline", []change{{path: "with space/t\tab.txt", mode: "100644", blob: blob}, {path: "with space/new\nline", mode: "100644", blob: blob}}, []string{"with space/new\nline"}},
		{"directories with a newline in their path", []change{{path: "new\nline/in.txt", mode: "100644", blob: blob},
			{path: "new\nline/sub/deep.txt"}, {path: "new\nline/sub/x\ny/new.txt", mode: "100644", blob: blob}}, []string{"new\nline/sub/x\ny/new.txt"}},
		{"everything removed", []change{{path: "a.txt"}, {path: "a-b"}, {path: "a/x.txt"}, {path: "a/deep/y.txt"}, {path: "a/deep/z.txt"},
			{path: "solo/only.txt"}, {path: "f"}, {path: "with space/t\tab.txt"}, {path: "new\nline/in.txt"}, {path: "new\nline/sub/deep.txt"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, added, err := b.editTree(ctx, base, tt.edits)
			if err != nil {
				t.Fatalf("editTree: %v", err)
			}
			if got = revParse(t, b, got); got != referenceTree(t, b, base, tt.edits) {
				t.Errorf("editTree gave %s:\n%s\nwant git's:\n%s", got, lsTreeAll(t, b, got), lsTreeAll(t, b, referenceTree(t, b, base, tt.edits)))
			}
			slices.Sort(added)
			if !slices.Equal(added, tt.added) {
				t.Errorf("added = %q, want %q", added, tt.added)
			}
		})
	}
}

// writeProjectTree writes the project's files as a tree through a
// temporary index.
func writeProjectTree(t *testing.T, b *gitBackend) string {
	t.Helper()
	index := filepath.Join(t.TempDir(), "index")
	ctx := context.Background()
	if _, err := b.r.run(ctx, gitCall{args: []string{"add", "--all"}, index: index}); err != nil {
		t.Fatal(err)
	}
	tree, err := b.writeTree(ctx, index)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// referenceTree applies edits the way git's own index does.
func referenceTree(t *testing.T, b *gitBackend, base string, edits []change) string {
	t.Helper()
	index := filepath.Join(t.TempDir(), "index")
	ctx := context.Background()
	if _, err := b.r.run(ctx, gitCall{args: []string{"read-tree", base}, index: index}); err != nil {
		t.Fatal(err)
	}
	var info strings.Builder
	for _, e := range edits {
		if e.mode == "" {
			fmt.Fprintf(&info, "0 %s\t%s\x00", nullOID, e.path)
		} else {
			fmt.Fprintf(&info, "%s %s\t%s\x00", e.mode, e.blob, e.path)
		}
	}
	if _, err := b.r.run(ctx, gitCall{args: []string{"update-index", "-z", "--index-info"}, index: index, stdin: strings.NewReader(info.String())}); err != nil {
		t.Fatal(err)
	}
	tree, err := b.writeTree(ctx, index)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func hashBlob(t *testing.T, b *gitBackend, content string) string {
	t.Helper()
	out, err := b.r.run(context.Background(), gitCall{args: []string{"hash-object", "-w", "--stdin"}, stdin: strings.NewReader(content)})
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func revParse(t *testing.T, b *gitBackend, rev string) string {
	t.Helper()
	out, err := b.r.run(context.Background(), gitCall{args: []string{"rev-parse", "--verify", rev}})
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

func lsTreeAll(t *testing.T, b *gitBackend, tree string) string {
	t.Helper()
	out, err := b.r.run(context.Background(), gitCall{args: []string{"ls-tree", "-r", "--full-tree", tree}})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// shadowEntries lists the shadow index's entries (mode, blob and path),
// without stat data.
func shadowEntries(t *testing.T, b *gitBackend) string {
	t.Helper()
	out, err := b.r.run(context.Background(), gitCall{args: []string{"ls-files", "-s", "-z"}})
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// treeOf returns the id of a checkpoint's tree.
func treeOf(t *testing.T, b *gitBackend, cp Checkpoint) string {
	t.Helper()
	if _, err := os.Stat(b.r.gitDir); err != nil {
		t.Fatal(err)
	}
	return revParse(t, b, cp.rev+"^{tree}")
}
