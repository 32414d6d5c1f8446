package builtin

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
)

// ignoreCases are paths in ignoreFixture and whether git ignores them.
var ignoreCases = []struct {
	path    string
	isDir   bool
	ignored bool
}{
	{"app.log", false, true},
	{"deep/er/app.log", false, true},
	{"build", true, true},
	{"build/x.go", false, true},
	{"src/build", false, false}, // "build/" matches directories only
	{"secret.txt", false, true},
	{"docs/secret.txt", false, false}, // "/secret.txt" is anchored
	{"docs/a.md", false, true},
	{"docs/sub/a.md", false, false}, // "docs/*.md" does not cross "/"
	{"other/docs/a.md", false, false},
	{"x/tmp", true, true},
	{"x/tmp/y", false, true},
	{"file1.txt", false, true},
	{"file10.txt", false, false}, // "?" is one character
	{"#hash", false, true},
	{"src/gen.go", false, true},
	{"gen.go", false, false}, // src/.gitignore only applies under src
	{"src/keep.log", false, false},
	{"src/other.log", false, true},
	{"c++/a.o", false, true},
	{"notes.md", false, false},
}

// ignoreFixture writes the ignore files the cases refer to.
func ignoreFixture(t *testing.T) string {
	t.Helper()
	root := testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(root, ".gitignore"), []byte(strings.Join([]string{
		"# a comment", "*.log", "build/", "/secret.txt", "docs/*.md", "**/tmp",
		"file?.txt", `\#hash`, "c++/", "",
	}, "\n")))
	testio.WriteFile(t, filepath.Join(root, "src", ".gitignore"), []byte("gen.go\n!keep.log\n"))
	return root
}

func TestIgnoreRules(t *testing.T) {
	root := ignoreFixture(t)
	tree := newIgnoreTree(root)
	for _, tc := range ignoreCases {
		if got := tree.ignored(strings.Split(tc.path, "/"), tc.isDir); got != tc.ignored {
			t.Errorf("ignored(%q) = %v, want %v", tc.path, got, tc.ignored)
		}
	}
	var none *ignoreTree
	if none.ignored([]string{"app.log"}, false) {
		t.Error("a nil tree ignored a file")
	}
}

// TestIgnoreRulesMatchGit checks the expectations above against git itself.
func TestIgnoreRulesMatchGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	root := ignoreFixture(t)
	if out, err := exec.Command(git, "init", "-q", root).CombinedOutput(); err != nil {
		t.Skipf("git init: %v: %s", err, out)
	}
	for _, tc := range ignoreCases {
		path := tc.path
		if tc.isDir {
			path += "/"
		}
		cmd := exec.Command(git, "-c", "core.excludesFile=", "check-ignore", "-q", "--no-index", path)
		cmd.Dir = root
		err := cmd.Run()
		gitIgnored := err == nil
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("git check-ignore %s: %v", path, err)
		}
		if gitIgnored != tc.ignored {
			t.Errorf("git says ignored(%q) = %v; the case says %v", tc.path, gitIgnored, tc.ignored)
		}
	}
}
