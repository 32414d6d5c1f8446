package builtin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
)

// nestedIgnoreFiles are the ignore files of the generated tree: nested
// .gitignore files with negations, anchoring, "**", character classes,
// directory-only patterns and escapes, the repository's info/exclude and a
// global excludes file named by the repository's configuration.
var nestedIgnoreFiles = map[string]string{
	".gitignore":            "*.o\n!keep.o\nbuild/\n/top.txt\n**/cache\nd?/*.tmp\n[ab]x.log\n[!c]y.log\n\\!bang\nspace\\ \n",
	"d1/.gitignore":         "!*.o\n*.txt\n!/top.txt\nsub/**/deep.md\n",
	"d1/sub/.gitignore":     "*.o\n!build/\n",
	"d2/.gitignore":         "/*.md\n!x.md\nnested/\n",
	"d2/d3/.gitignore":      "*\n!*/\n!*.go\n",
	".git/info/exclude":     "*.excl\n!d1/*.excl\n",
	"global-ignore":         "*.glob\n",
	"d1/sub/x/y/.gitignore": "../z.o\n",
}

// nestedTreePaths are the files of the generated tree; every directory on
// their way is checked too.
func nestedTreePaths() []string {
	dirs := []string{"", "d1", "d1/sub", "d1/sub/x/y", "d1/sub/build", "d2", "d2/d3", "d2/d3/e",
		"d2/nested", "d4/cache", "d1/cache/inner", "build", "dx", "d1/sub/a/b"}
	names := []string{"a.o", "keep.o", "top.txt", "a.txt", "x.md", "y.md", "deep.md", "f.tmp",
		"ax.log", "bx.log", "cx.log", "cy.log", "dy.log", "!bang", "space ", "a.excl", "a.glob",
		"main.go", "z.o", "plain"}
	var out []string
	for _, d := range dirs {
		for _, n := range names {
			out = append(out, filepath.ToSlash(filepath.Join(d, n)))
		}
	}
	return out
}

// TestIgnoreRulesMatchGitCheckIgnore generates a tree with nested rules
// and checks every file and directory in it against git check-ignore.
func TestIgnoreRulesMatchGitCheckIgnore(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	root := testio.RealTempDir(t)
	if out, err := exec.Command(git, "init", "-q", root).CombinedOutput(); err != nil {
		t.Skipf("git init: %v: %s", err, out)
	}
	for name, body := range nestedIgnoreFiles {
		testio.WriteFile(t, filepath.Join(root, name), []byte(body))
	}
	cfg := exec.Command(git, "config", "core.excludesFile", filepath.Join(root, "global-ignore"))
	cfg.Dir = root
	if out, err := cfg.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v: %s", err, out)
	}
	paths := map[string]bool{} // path → is a directory
	for _, p := range nestedTreePaths() {
		testio.WriteFile(t, filepath.Join(root, p), []byte("x"))
		paths[p] = false
		for d := filepath.Dir(p); d != "."; d = filepath.Dir(d) {
			paths[filepath.ToSlash(d)] = true
		}
	}
	var query []string
	for p, isDir := range paths {
		if isDir {
			p += "/"
		}
		query = append(query, p)
	}
	slices.Sort(query)
	gitIgnored := checkIgnore(t, git, root, query)
	tree := newIgnoreTree(root)
	for _, q := range query {
		p := strings.TrimSuffix(q, "/")
		got := tree.ignored(strings.Split(p, "/"), paths[p])
		if got != gitIgnored[q] {
			t.Errorf("ignored(%q) = %v; git check-ignore says %v", q, got, gitIgnored[q])
		}
	}
}

// checkIgnore returns the paths git check-ignore reports as ignored.
func checkIgnore(t *testing.T, git, root string, paths []string) map[string]bool {
	t.Helper()
	cmd := exec.Command(git, "check-ignore", "--no-index", "--stdin")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("git check-ignore: %v", err)
	}
	ignored := map[string]bool{}
	for l := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			ignored[unquoteGit(l)] = true
		}
	}
	if len(ignored) == 0 || len(ignored) == len(paths) {
		t.Fatalf("git ignored %d of %d paths; the fixture tests nothing", len(ignored), len(paths))
	}
	return ignored
}

// unquoteGit undoes git's C-style quoting of unusual paths.
func unquoteGit(s string) string {
	if !strings.HasPrefix(s, `"`) {
		return s
	}
	var u string
	if _, err := fmt.Sscanf(s, "%q", &u); err != nil {
		return s
	}
	return u
}
