package testio

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RealTempDir is t.TempDir with symlinks resolved (macOS's /tmp is a link).
func RealTempDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteFile writes data to path, creating its folders.
func WriteFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// RootsFixture builds two roots and an outside directory with symlinks
// between them, for the path-confinement tests of the tool core and the
// built-in tools:
//
//	root/src/a.go
//	root/inlink -> root/src        (stays inside)
//	root/outlink -> outside        (escapes)
//	root/toextra -> extra          (into the other root)
//	root/dangling -> outside/new   (dangling, escapes)
func RootsFixture(t testing.TB) (root, extra, outside string) {
	t.Helper()
	base := RealTempDir(t)
	root, extra, outside = filepath.Join(base, "root"), filepath.Join(base, "extra"), filepath.Join(base, "outside")
	WriteFile(t, filepath.Join(root, "src", "a.go"), []byte("package src\n"))
	WriteFile(t, filepath.Join(extra, "e.txt"), []byte("e\n"))
	WriteFile(t, filepath.Join(outside, "o.txt"), []byte("o\n"))
	for link, target := range map[string]string{
		"inlink": filepath.Join(root, "src"), "outlink": outside,
		"toextra": extra, "dangling": filepath.Join(outside, "new"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skipf("symlinks unavailable: %v", err)
		}
	}
	return root, extra, outside
}

// NeedGopls skips the test when gopls is not on PATH. `make tools` builds
// the gopls the tests are pinned to (.ci/tools/go.mod) into bin/tools, and
// make puts that folder first on PATH, so CI, which runs the tests through
// make, never skips.
func NeedGopls(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("gopls is not on PATH (make tools builds the pinned one into bin/tools; make puts it on PATH)")
	}
}
