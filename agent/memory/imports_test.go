package memory

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestImports(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string // under base; the session root is base/repo
		depth    int
		contains []string
		absent   []string
	}{
		{name: "relative",
			files:    map[string]string{"repo/AGENTS.md": "Style: @docs/style.md", "repo/docs/style.md": "Use gofmt."},
			contains: []string{"Style: <!-- begin import: docs/style.md -->\nUse gofmt.\n<!-- end import: docs/style.md -->"}},
		{name: "nested, relative to the importing file",
			files: map[string]string{
				"repo/AGENTS.md":     "@docs/a.md",
				"repo/docs/a.md":     "A then @sub/b.md",
				"repo/docs/sub/b.md": "B then @../../c.md!",
				"repo/c.md":          "C",
			},
			contains: []string{"A then <!-- begin import: sub/b.md -->\nB then <!-- begin import: ../../c.md -->\nC\n<!-- end import: ../../c.md -->!"}},
		{name: "absolute inside the project",
			files:    map[string]string{"repo/AGENTS.md": "@$BASE/repo/x.md", "repo/x.md": "X content"},
			contains: []string{"X content"}},
		{name: "cycle a→b→a",
			files:    map[string]string{"repo/AGENTS.md": "@a.md", "repo/a.md": "A @b.md", "repo/b.md": "B @a.md"},
			contains: []string{"A <!-- begin import: b.md -->\nB <!-- import skipped: a.md is already being imported (an import cycle) -->"}},
		{name: "a file importing itself",
			files:    map[string]string{"repo/AGENTS.md": "self @AGENTS.md"},
			contains: []string{"self <!-- import skipped: AGENTS.md is already being imported (an import cycle) -->"}},
		{name: "the same file twice is no cycle",
			files:    map[string]string{"repo/AGENTS.md": "@x.md and @x.md", "repo/x.md": "X"},
			contains: []string{"X\n<!-- end import: x.md --> and <!-- begin import: x.md -->\nX"}},
		{name: "missing file noted inline",
			files:    map[string]string{"repo/AGENTS.md": "before @nope.md after"},
			contains: []string{"before <!-- import not found: nope.md --> after"}},
		{name: "depth limit",
			depth: 2,
			files: map[string]string{
				"repo/AGENTS.md": "@d1.md", "repo/d1.md": "one @d2.md", "repo/d2.md": "two @d3.md", "repo/d3.md": "three",
			},
			contains: []string{"one", "two <!-- import skipped: d3.md is nested more than 2 imports deep -->"},
			absent:   []string{"three"}},
		{name: "escape with ../ refused",
			files:    map[string]string{"repo/AGENTS.md": "@../secret.md", "secret.md": "SECRET"},
			contains: []string{"<!-- import refused: ../secret.md is outside the project and the user's configuration directories -->"},
			absent:   []string{"SECRET"}},
		{name: "absolute path outside refused",
			files:    map[string]string{"repo/AGENTS.md": "@/etc/passwd.txt and @$BASE/secret.md", "secret.md": "SECRET"},
			contains: []string{"import refused: /etc/passwd.txt", "import refused: $BASE/secret.md"},
			absent:   []string{"SECRET"}},
		{name: "link pointing outside refused",
			files:    map[string]string{"repo/AGENTS.md": "@link.md", "secret.md": "SECRET", "repo/link.md": "->../secret.md"},
			contains: []string{"import refused: link.md"},
			absent:   []string{"SECRET"}},
		{name: "user dir imports allowed",
			files:    map[string]string{"user/AGENTS.md": "@more.md", "user/more.md": "user more", "repo/AGENTS.md": "@$BASE/user/more.md"},
			contains: []string{"user more\n<!-- end import: more.md -->", "user more\n<!-- end import: $BASE/user/more.md -->"}},
		{name: "code fences and inline code ignored",
			files: map[string]string{
				"repo/AGENTS.md": "```md\n@x.md\n```\n~~~~\n@x.md\n```\n@x.md\n~~~~\nuse `@x.md` or ``a ` @x.md``\n    ```\nreal @x.md",
				"repo/x.md":      "X",
			},
			contains: []string{"```md\n@x.md\n```\n~~~~\n@x.md\n```\n@x.md\n~~~~\nuse `@x.md` or ``a ` @x.md``\n    ```\nreal <!-- begin import: x.md -->"}},
		{name: "not imports",
			files: map[string]string{
				"repo/AGENTS.md": "mail a@x.md, decorate @Override, scope @types/node, @ alone, (@x.md)",
				"repo/x.md":      "X",
			},
			contains: []string{"mail a@x.md, decorate @Override, scope @types/node, @ alone, (<!-- begin import: x.md -->\nX\n<!-- end import: x.md -->)"}},
		{name: "binary import",
			files:    map[string]string{"repo/AGENTS.md": "@b.bin", "repo/b.bin": "a\x00b"},
			contains: []string{"<!-- import failed: b.bin: not a text file -->"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := tempDir(t)
			files := map[string]string{"repo/.git/": ""}
			links := map[string]string{}
			for rel, content := range tt.files {
				content = strings.ReplaceAll(content, "$BASE", base)
				if target, ok := strings.CutPrefix(content, "->"); ok {
					links[rel] = target
					continue
				}
				files[rel] = content
			}
			writeTree(t, base, files)
			for rel, target := range links {
				if err := os.Symlink(target, filepath.Join(base, rel)); err != nil {
					t.Fatal(err)
				}
			}
			opts := Options{MaxImportDepth: tt.depth, UserDirs: []string{filepath.Join(base, "user")}}
			m, err := Load(context.Background(), opts, "", filepath.Join(base, "repo"))
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(m.Text(), base, "$BASE")
			for _, want := range tt.contains {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			for _, bad := range tt.absent {
				if strings.Contains(text, bad) {
					t.Errorf("text has %q:\n%s", bad, text)
				}
			}
		})
	}
}

func TestImportBlowUpCapped(t *testing.T) {
	// Each level imports the next twice: 2^4 copies of the leaf unless the
	// size cap stops the expansion early.
	base := tempDir(t)
	leaf := strings.Repeat("x", 300)
	files := map[string]string{"l5.md": leaf}
	for i := 1; i < 5; i++ {
		next := fmt.Sprintf("@l%d.md", i+1)
		files[fmt.Sprintf("l%d.md", i)] = next + " " + next
	}
	writeTree(t, base, files)
	opts := Options{MaxBytes: 2000}.withDefaults()
	x := &expander{l: newLoader(opts, base, &state{seen: map[string]bool{}})}
	top := filepath.Join(base, "AGENTS.md")
	out := x.expand("@l1.md", top, []string{top}, 0)
	if n := strings.Count(out, leaf); n == 0 || n > 7 {
		t.Errorf("leaf imported %d times", n)
	}
	if !strings.Contains(out, "<!-- import skipped: l5.md would pass the size limit of the instruction files -->") {
		t.Errorf("no size note:\n%s", out)
	}
}

func TestFindImports(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"@a.md", []string{"a.md"}},
		{"see @a.md, @b/c.txt; and @d.md.", []string{"a.md", "b/c.txt", "d.md"}},
		{"x@a.md `@b.md` @c", nil},
		{"[@a.md] *@b.md* ``@c.md`` `unclosed @d.md", []string{"a.md", "b.md", "d.md"}},
		{"@~/notes.md @../up.md @/abs/x.md", []string{"~/notes.md", "../up.md", "/abs/x.md"}},
		{"@.md @a.m-d @a.", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, r := range findImports(tt.line) {
			if tt.line[r.start:r.end] != "@"+r.path {
				t.Errorf("%q: span %q for %q", tt.line, tt.line[r.start:r.end], r.path)
			}
			got = append(got, r.path)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("findImports(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
