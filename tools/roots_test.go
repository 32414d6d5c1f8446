package tools

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"companion/internal/testkit/testio"
)

func TestNewRootsRejects(t *testing.T) {
	root, _, _ := testio.RootsFixture(t)
	tests := []struct {
		name           string
		primary, extra string
	}{
		{"relative primary", "root", ""},
		{"missing primary", filepath.Join(root, "nope"), ""},
		{"file as primary", filepath.Join(root, "src", "a.go"), ""},
		{"missing extra", root, filepath.Join(root, "nope")},
		{"relative extra", root, "src"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var extra []string
			if tt.extra != "" {
				extra = []string{tt.extra}
			}
			if _, err := NewRoots(tt.primary, extra...); !errors.Is(err, ErrBadRoot) {
				t.Fatalf("NewRoots(%q, %q) = %v, want ErrBadRoot", tt.primary, tt.extra, err)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	root, extra, outside := testio.RootsFixture(t)
	r, err := NewRoots(root, extra)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want string // "" means ErrOutsideRoots
	}{
		{"", root},
		{".", root},
		{"src/a.go", filepath.Join(root, "src", "a.go")},
		{"./src/../src/a.go", filepath.Join(root, "src", "a.go")},
		{filepath.Join(root, "src"), filepath.Join(root, "src")},
		{"src/not/yet.go", filepath.Join(root, "src", "not", "yet.go")},
		{"inlink/a.go", filepath.Join(root, "src", "a.go")},
		{"inlink/new/file.go", filepath.Join(root, "src", "new", "file.go")},
		{"toextra/e.txt", filepath.Join(extra, "e.txt")},
		{"toextra/new.txt", filepath.Join(extra, "new.txt")},
		{filepath.Join(extra, "e.txt"), filepath.Join(extra, "e.txt")},
		{"..", ""},
		{"../outside/o.txt", ""},
		{outside, ""},
		{"outlink/o.txt", ""},
		{"outlink/new.txt", ""},
		{"dangling", ""},
		{"dangling/deeper/file", ""},
		{"/", ""},
	}
	for _, tt := range tests {
		got, err := r.Resolve(tt.path)
		if tt.want == "" {
			if !errors.Is(err, ErrOutsideRoots) {
				t.Errorf("Resolve(%q) = %q, %v; want ErrOutsideRoots", tt.path, got, err)
			} else if !strings.Contains(err.Error(), root) || !strings.Contains(err.Error(), extra) {
				t.Errorf("Resolve(%q) error %q does not name the allowed roots", tt.path, err)
			}
			if r.Contains(tt.path) {
				t.Errorf("Contains(%q) = true", tt.path)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", tt.path, got, err, tt.want)
		}
	}
}

func TestRootsSymlinkedRoot(t *testing.T) {
	root, _, _ := testio.RootsFixture(t)
	link := filepath.Join(testio.RealTempDir(t), "rootlink")
	if err := os.Symlink(root, link); err != nil {
		t.Skip(err)
	}
	r, err := NewRoots(link)
	if err != nil {
		t.Fatal(err)
	}
	if r.Primary() != root {
		t.Errorf("Primary() = %q, want the resolved %q", r.Primary(), root)
	}
	got, err := r.Resolve(filepath.Join(link, "src", "a.go"))
	if err != nil || got != filepath.Join(root, "src", "a.go") {
		t.Errorf("Resolve through the root's link = %q, %v", got, err)
	}
}

func TestRootsAddAndDisplay(t *testing.T) {
	root, extra, _ := testio.RootsFixture(t)
	r, err := NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	if r.Contains(filepath.Join(extra, "e.txt")) {
		t.Fatal("extra root contained before Add")
	}
	if err := r.Add(extra); err != nil {
		t.Fatal(err)
	}
	if err := r.Add(extra); err != nil {
		t.Fatal(err)
	}
	if got := r.All(); len(got) != 2 || got[0] != root || got[1] != extra {
		t.Errorf("All() = %q", got)
	}
	if !r.Contains(filepath.Join(extra, "e.txt")) {
		t.Error("extra root not contained after Add")
	}
	if err := r.Add("relative"); !errors.Is(err, ErrBadRoot) {
		t.Errorf("Add(relative) = %v", err)
	}
	for abs, want := range map[string]string{
		filepath.Join(root, "src", "a.go"): "src/a.go",
		root:                               ".",
		filepath.Join(extra, "e.txt"):      filepath.Join(extra, "e.txt"),
	} {
		if got := r.Display(abs); got != want {
			t.Errorf("Display(%q) = %q, want %q", abs, got, want)
		}
	}
	if got, ok := r.RootOf(filepath.Join(extra, "e.txt")); !ok || got != extra {
		t.Errorf("RootOf = %q, %v", got, ok)
	}
}

func TestRootsConcurrent(t *testing.T) {
	root, _, _ := testio.RootsFixture(t)
	r, err := NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		dir := filepath.Join(testio.RealTempDir(t), "d")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			if err := r.Add(dir); err != nil {
				t.Error(err)
			}
		})
		wg.Go(func() {
			if _, err := r.Resolve("src/a.go"); err != nil {
				t.Error(i, err)
			}
		})
	}
	wg.Wait()
	if n := len(r.All()); n != 9 {
		t.Errorf("len(All()) = %d, want 9", n)
	}
}

func TestAllowRead(t *testing.T) {
	root, extra := t.TempDir(), t.TempDir()
	r, err := NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(extra, "out.log")
	if _, err := r.Resolve(logFile); err == nil {
		t.Fatal("outside path resolved before AllowRead")
	}
	if err := r.AllowRead(extra); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resolve(logFile); err != nil {
		t.Errorf("Resolve after AllowRead: %v", err)
	}
	if r.Contains(logFile) {
		t.Error("a read-only directory must not count as a workspace root for writes")
	}
}
