package memory

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
)

var update = flag.Bool("update", false, "rewrite golden files")

// tempDir returns a temporary directory with links resolved, so paths
// compare equal on systems where the temp dir is a link.
func tempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writeTree writes files (slash paths relative to root → content); a
// content ending in "/" makes a directory.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// rels returns paths relative to base, in slash form.
func rels(t *testing.T, base string, paths []string) []string {
	t.Helper()
	out := make([]string, len(paths))
	for i, p := range paths {
		r, err := filepath.Rel(base, p)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = filepath.ToSlash(r)
	}
	return out
}

func TestLoadHierarchy(t *testing.T) {
	tree := map[string]string{
		"home/cfg/AGENTS.md":         "user agents",
		"home/gemini/GEMINI.md":      "user gemini",
		"repo/AGENTS.md":             "root agents",
		"repo/GEMINI.md":             "root gemini",
		"repo/a/AGENTS.md":           "a agents",
		"repo/a/b/GEMINI.md":         "b gemini",
		"repo/a/b/c/AGENTS.md":       "below the session root",
		"repo/a/sibling/AGENTS.md":   "not on the path",
		"repo/a/b/empty/AGENTS.md":   "",
		"repo/a/b/blank/GEMINI.md":   "  \n\n",
		"repo/a/AGENTS.md.bak":       "not an instruction file",
		"repo/a/b/other/NOTES.md":    "no",
		"repo/a/b/dir/AGENTS.md/":    "",
		"repo/a/b/dir/GEMINI.md":     "dir gemini",
		"elsewhere/AGENTS.md":        "not an ancestor",
		"repo/.git/HEAD":             "ref: refs/heads/main",
		"plain/x/AGENTS.md":          "plain x",
		"plain/AGENTS.md":            "plain root without git",
		"repo/a/b/.hidden/AGENTS.md": "",
	}
	base := tempDir(t)
	writeTree(t, base, tree)
	userDirs := []string{filepath.Join(base, "home/cfg"), filepath.Join(base, "home/gemini"), filepath.Join(base, "home/missing")}
	tests := []struct {
		name            string
		project, sessio string
		want            []string
	}{
		{"git root found", "", "repo/a/b",
			[]string{"home/cfg/AGENTS.md", "home/gemini/GEMINI.md", "repo/AGENTS.md", "repo/GEMINI.md", "repo/a/AGENTS.md", "repo/a/b/GEMINI.md"}},
		{"explicit project root", "repo/a", "repo/a/b",
			[]string{"home/cfg/AGENTS.md", "home/gemini/GEMINI.md", "repo/a/AGENTS.md", "repo/a/b/GEMINI.md"}},
		{"project root not an ancestor", "elsewhere", "repo/a/b",
			[]string{"home/cfg/AGENTS.md", "home/gemini/GEMINI.md", "repo/a/b/GEMINI.md"}},
		{"session at the git root", "", "repo",
			[]string{"home/cfg/AGENTS.md", "home/gemini/GEMINI.md", "repo/AGENTS.md", "repo/GEMINI.md"}},
		{"no git: the session root only", "", "plain/x",
			[]string{"home/cfg/AGENTS.md", "home/gemini/GEMINI.md", "plain/x/AGENTS.md"}},
		{"a directory named like a file is skipped", "", "repo/a/b/dir",
			[]string{"home/cfg/AGENTS.md", "home/gemini/GEMINI.md", "repo/AGENTS.md", "repo/GEMINI.md", "repo/a/AGENTS.md", "repo/a/b/GEMINI.md", "repo/a/b/dir/GEMINI.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project := ""
			if tt.project != "" {
				project = filepath.Join(base, tt.project)
			}
			m, err := Load(context.Background(), Options{UserDirs: userDirs}, project, filepath.Join(base, tt.sessio))
			if err != nil {
				t.Fatal(err)
			}
			if got := rels(t, base, m.Files()); !slices.Equal(got, tt.want) {
				t.Errorf("files = %q\nwant %q", got, tt.want)
			}
			text := m.Text()
			last := -1
			for _, rel := range tt.want {
				p := filepath.Join(base, rel)
				i := strings.Index(text, "instructions from "+p+" ---\n"+tree[rel]+"\n--- End of "+p+" ---")
				if i < 0 || i < last {
					t.Errorf("text lacks %s in order:\n%s", rel, text)
				}
				last = i
			}
		})
	}
}

func TestLoadFileNamesAndDedup(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, map[string]string{
		"repo/.git/":     "",
		"repo/AGENTS.md": "shared",
		"repo/CUSTOM.md": "custom",
		"repo/sub/ME.md": "me",
		"user/CUSTOM.md": "user custom",
		"user/AGENTS.md": "user agents",
	})
	// GEMINI.md links to AGENTS.md: one file, loaded once.
	if err := os.Symlink("AGENTS.md", filepath.Join(base, "repo/GEMINI.md")); err != nil {
		t.Fatal(err)
	}
	m, err := Load(context.Background(), Options{UserDirs: []string{filepath.Join(base, "user")}}, "", filepath.Join(base, "repo"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"user/AGENTS.md", "repo/AGENTS.md"}
	if got := rels(t, base, m.Files()); !slices.Equal(got, want) {
		t.Errorf("linked files: %q, want %q", got, want)
	}
	opts := Options{FileNames: []string{"CUSTOM.md", "ME.md"}, UserDirs: []string{filepath.Join(base, "user"), filepath.Join(base, "repo")}}
	m, err = Load(context.Background(), opts, "", filepath.Join(base, "repo/sub"))
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"user/CUSTOM.md", "repo/CUSTOM.md", "repo/sub/ME.md"}
	if got := rels(t, base, m.Files()); !slices.Equal(got, want) {
		t.Errorf("custom names, user dir = project root: %q, want %q", got, want)
	}
	if !strings.Contains(m.Text(), "--- User instructions from "+filepath.Join(base, "repo/CUSTOM.md")) {
		t.Errorf("a file loaded as the user's first keeps the user scope:\n%s", m.Text())
	}
}

func TestLoadErrors(t *testing.T) {
	base := tempDir(t)
	if _, err := Load(context.Background(), Options{}, "", "relative/dir"); !errors.Is(err, ErrBadRoot) {
		t.Errorf("relative session root: %v", err)
	}
	if _, err := Load(context.Background(), Options{}, "rel", base); !errors.Is(err, ErrBadRoot) {
		t.Errorf("relative project root: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, Options{}, "", base); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	m, err := Load(context.Background(), Options{}, "", base)
	if err != nil || m.Text() != "" || len(m.Files()) != 0 {
		t.Errorf("empty dir: %v %q %q", err, m.Text(), m.Files())
	}
}

func TestLoadSizeCap(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, map[string]string{
		"user/AGENTS.md": strings.Repeat("u", 60),
		"repo/.git/":     "",
		"repo/AGENTS.md": "first line is long enough\n" + strings.Repeat("r", 50),
		"repo/GEMINI.md": "never loaded",
	})
	opts := Options{MaxBytes: 100, UserDirs: []string{filepath.Join(base, "user")}}
	m, err := Load(context.Background(), opts, "", filepath.Join(base, "repo"))
	if err != nil {
		t.Fatal(err)
	}
	text := m.Text()
	for _, want := range []string{
		strings.Repeat("u", 60),
		"first line is long enough\n[cut here: the instruction files reached their limit of 100 bytes]",
		"GEMINI.md ---\n[not loaded: the instruction files reached their limit of 100 bytes]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "never loaded") {
		t.Errorf("a file past the cap was loaded:\n%s", text)
	}
}

func TestRefresh(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, map[string]string{"AGENTS.md": "old", "sub/AGENTS.md": "sub"})
	m, err := Load(context.Background(), Options{}, "", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.Touch(filepath.Join(base, "sub")); !ok {
		t.Fatal("touch loaded nothing")
	}
	writeTree(t, base, map[string]string{"AGENTS.md": "new", "GEMINI.md": "added later"})
	if strings.Contains(m.Text(), "new") {
		t.Fatal("text changed before Refresh")
	}
	if err := m.Refresh(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"AGENTS.md", "GEMINI.md", "sub/AGENTS.md"}
	if got := rels(t, base, m.Files()); !slices.Equal(got, want) {
		t.Errorf("after refresh: %q, want %q", got, want)
	}
	if text := m.Text(); !strings.Contains(text, "new") || strings.Contains(text, "old") {
		t.Errorf("refresh kept old text:\n%s", text)
	}
	if added, ok := m.Touch(filepath.Join(base, "sub")); ok {
		t.Errorf("a touched file came back after refresh: %q", added)
	}
}

func TestTextGolden(t *testing.T) {
	base := tempDir(t)
	writeTree(t, base, map[string]string{
		"user/AGENTS.md":     "# Me\nI like tabs.",
		"repo/.git/":         "",
		"repo/AGENTS.md":     "# Project\nSee @docs/style.md for style.\n\n```\n@docs/style.md stays\n```\nAlso @missing.md.",
		"repo/docs/style.md": "Use gofmt.\n@../rules.md",
		"repo/rules.md":      "No globals.",
		"repo/app/GEMINI.md": "App rules.",
	})
	m, err := Load(context.Background(), Options{UserDirs: []string{filepath.Join(base, "user")}}, "", filepath.Join(base, "repo/app"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.ReplaceAll(m.Text(), base, "$BASE") + "\n"
	testio.Golden(t, filepath.Join("testdata", "text.golden"), []byte(got), *update)
}
