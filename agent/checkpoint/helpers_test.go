package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// backendCase is one way of opening a Store in the shared tests.
type backendCase struct {
	name    string
	backend string
	opts    []Option
}

// backends returns the git backend (skipped without git) and the file
// backend, for table tests.
func backends(t testing.TB) []backendCase {
	t.Helper()
	return []backendCase{
		{name: "git", backend: BackendGit},
		{name: "files", backend: BackendFiles, opts: []Option{WithoutGit()}},
	}
}

// skipWithoutGit skips git-backend tests on machines without git.
func (bc backendCase) skipWithoutGit(t testing.TB) {
	t.Helper()
	if bc.backend == BackendGit {
		requireGit(t)
	}
}

func requireGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// project is a temporary project root and state directory.
type project struct {
	t     testing.TB
	root  string
	state string
	store *Store
}

// newProject writes files (path → content) under a fresh root and opens a
// Store with opts.
func newProject(t testing.TB, files map[string]string, opts ...Option) *project {
	t.Helper()
	base := t.TempDir()
	p := &project{t: t, root: filepath.Join(base, "project"), state: filepath.Join(base, "state", "cp")}
	if err := os.MkdirAll(p.root, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p.write(name, content)
	}
	s, err := Open(p.state, p.root, testLogger(t), opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	p.store = s
	return p
}

// testLogger logs through t.
func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}

func (p *project) path(name string) string { return filepath.Join(p.root, filepath.FromSlash(name)) }

func (p *project) write(name, content string) {
	p.t.Helper()
	if err := os.MkdirAll(filepath.Dir(p.path(name)), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(p.path(name), []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

// read returns the file's content, or "<absent>".
func (p *project) read(name string) string {
	p.t.Helper()
	data, err := os.ReadFile(p.path(name))
	if os.IsNotExist(err) {
		return "<absent>"
	}
	if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

// expect checks files' contents (path → content, or "<absent>" for no file
// or directory at all).
func (p *project) expect(want map[string]string) {
	p.t.Helper()
	for name, w := range want {
		if w == "<absent>" && p.exists(name) {
			p.t.Errorf("%s exists, want it absent", name)
		} else if got := p.read(name); w != "<absent>" && got != w {
			p.t.Errorf("%s = %q, want %q", name, got, w)
		}
	}
}

func (p *project) exists(name string) bool {
	_, err := os.Lstat(p.path(name))
	return err == nil
}

func (p *project) save(label string, paths ...string) Checkpoint {
	p.t.Helper()
	cp, err := p.store.Save(context.Background(), label, paths)
	if err != nil {
		p.t.Fatalf("Save(%q): %v", label, err)
	}
	return cp
}

func (p *project) restore(id string) Restoration {
	p.t.Helper()
	res, err := p.store.Restore(context.Background(), id)
	if err != nil {
		p.t.Fatalf("Restore(%s): %v", id, err)
	}
	return res
}

func (p *project) list() []Checkpoint {
	p.t.Helper()
	cps, err := p.store.List(context.Background())
	if err != nil {
		p.t.Fatalf("List: %v", err)
	}
	return cps
}

// treeDigest hashes every name, mode and content under dir, so any change
// in it shows.
func treeDigest(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v", p, fi.Mode())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// projectGit runs git for the project's own repository, isolated from the
// user's configuration.
func projectGit(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@t"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
