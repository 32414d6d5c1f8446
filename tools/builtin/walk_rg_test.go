package builtin

import (
	"context"
	"errors"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
)

// searchEngines are the engines the search tests run with: the Go walk
// ("-") and, when installed, ripgrep.
func searchEngines() []string {
	engines := []string{"-"}
	if rg, err := exec.LookPath("rg"); err == nil {
		engines = append(engines, rg)
	}
	return engines
}

// TestWalkRipgrepMatchesGoWalk lists a tree with nested rules, a
// .geminiignore and a global excludes file both ways: the same files, and
// ripgrep really ran (no fallback).
func TestWalkRipgrepMatchesGoWalk(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	root := testio.RealTempDir(t)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, ".config"))
	for name, body := range map[string]string{
		".gitignore": "*.o\nbuild/\n", "src/.gitignore": "!keep.o\ngen/\n", ".geminiignore": "secret*\n",
		".config/git/ignore": "*.swp\n", "src/a.go": "", "src/keep.o": "", "src/x.o": "", "src/gen/g.go": "",
		"build/b.go": "", "secret.txt": "", "docs/secret.md": "", "notes.swp": "", "README": "",
		".hidden/h.go": "", "src/deep/er/d.go": "",
	} {
		testio.WriteFile(t, filepath.Join(root, name), []byte(body))
	}
	env := newEnv(t, root)
	list := func(w *walker, viaRg bool) []string {
		var got []string
		visit := func(_ string, rel []string, _ fs.DirEntry) error {
			got = append(got, strings.Join(rel, "/"))
			return nil
		}
		if err := w.open(); err != nil {
			t.Fatal(err)
		}
		defer w.close()
		if viaRg {
			err = w.walkRipgrep(context.Background(), visit)
		} else {
			err = w.walk(context.Background(), visit)
		}
		if err != nil {
			t.Fatalf("walk: %v", err)
		}
		slices.Sort(got)
		return got
	}
	for _, dir := range []string{root, filepath.Join(root, "src")} {
		goWalk := list(&walker{roots: env.Roots, root: root, dir: dir, ignore: newIgnoreTree(root)}, false)
		rgWalk := list(&walker{roots: env.Roots, root: root, dir: dir, ignore: newIgnoreTree(root), rg: rg}, true)
		if !slices.Equal(goWalk, rgWalk) {
			t.Errorf("in %s: Go walk %q, ripgrep %q", dir, goWalk, rgWalk)
		}
		if slices.Contains(goWalk, "notes.swp") || slices.Contains(goWalk, "secret.txt") || len(goWalk) < 3 {
			t.Errorf("in %s: the rules were not applied: %q", dir, goWalk)
		}
	}
	// A .geminiignore that re-includes something sends the walk to Go.
	testio.WriteFile(t, filepath.Join(root, "src", ".geminiignore"), []byte("!x.o\n"))
	w := &walker{roots: env.Roots, root: root, dir: root, ignore: newIgnoreTree(root), rg: rg}
	if err := w.open(); err != nil {
		t.Fatal(err)
	}
	defer w.close()
	err = w.walkRipgrep(context.Background(), func(string, []string, fs.DirEntry) error { return nil })
	if !errors.Is(err, errRgInexact) {
		t.Errorf("walkRipgrep with a negation in a .geminiignore = %v, want errRgInexact", err)
	}
}
