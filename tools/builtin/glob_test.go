package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// globNow is the fixed clock of the glob tests.
var globNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// globFixture is the workspace with every file a week old except a few
// changed within the last day, and a symlink to a directory outside.
func globFixture(t *testing.T) (root, outside string) {
	t.Helper()
	root = newSandbox(t, "workspace.txtar")
	old := globNow.Add(-7 * 24 * time.Hour)
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return os.Chtimes(path, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
	for rel, age := range map[string]time.Duration{
		"src/util/strings.go": time.Hour, "web/index.ts": 3 * time.Hour, "main.go": 2 * time.Hour,
	} {
		mt := globNow.Add(-age)
		if err := os.Chtimes(filepath.Join(root, rel), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	outside = testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(outside, "leak.go"), []byte("package leak\n"))
	if err := os.Symlink(outside, filepath.Join(root, "outlink")); err != nil {
		t.Skip(err)
	}
	return root, outside
}

func TestGlob(t *testing.T) {
	root, _ := globFixture(t)
	env := newEnv(t, root)
	opts := ReadOnlyOptions{Now: func() time.Time { return globNow }}
	tests := []struct {
		name string
		opts ReadOnlyOptions
		args map[string]any
		want []string // the listed paths, in order
	}{
		{"recursive, recent first", opts, map[string]any{"pattern": "**/*.go"},
			[]string{"src/util/strings.go", "main.go", "src/app.go", "src/app_test.go"}},
		{"without ignore files", opts, map[string]any{"pattern": "**/*.go", "respect_git_ignore": false},
			[]string{"src/util/strings.go", "main.go", "build/out.go", "src/app.go", "src/app_test.go", "src/util/generated.go"}},
		{"nested negation and geminiignore", opts, map[string]any{"pattern": "**/*.{log,txt}"},
			[]string{"docs/secret.txt", "src/util/keep.log"}},
		{"top level only", opts, map[string]any{"pattern": "*.go"}, []string{"main.go"}},
		{"literal prefix", opts, map[string]any{"pattern": "src/*.go", "case_sensitive": true},
			[]string{"src/app.go", "src/app_test.go"}},
		{"case-insensitive by default", opts, map[string]any{"pattern": "**/*.MD"},
			[]string{"README.md", "docs/guide.md"}},
		{"case-sensitive", opts, map[string]any{"pattern": "**/*.MD", "case_sensitive": true}, nil},
		{"in dir_path", opts, map[string]any{"pattern": "*.ts*", "dir_path": "web"},
			[]string{"web/index.ts", "web/page.tsx"}},
		{"absolute pattern", opts, map[string]any{"pattern": filepath.Join(root, "web", "*.tsx")},
			[]string{"web/page.tsx"}},
		{"cut", ReadOnlyOptions{Now: opts.Now, MaxGlobResults: 2}, map[string]any{"pattern": "**/*.go"},
			[]string{"src/util/strings.go", "main.go"}},
	}
	for _, engine := range searchEngines() {
		for _, tt := range tests {
			t.Run(engine+"/"+tt.name, func(t *testing.T) {
				tt.opts.RipgrepPath = engine
				res := call(t, toolByName(t, "glob", tt.opts), env, mustJSON(t, tt.args))
				if res.IsError {
					t.Fatalf("error result: %s", res.Text)
				}
				if got := globPaths(res.Text); strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
					t.Errorf("paths = %q, want %q\n%s", got, tt.want, res.Text)
				}
			})
		}
	}
}

// globPaths picks the listed paths out of glob's text.
func globPaths(text string) []string {
	var out []string
	for i, line := range strings.Split(text, "\n") {
		if i == 0 || strings.HasPrefix(line, "(") || line == "" {
			continue
		}
		out = append(out, line)
	}
	return out
}

func TestGlobGolden(t *testing.T) {
	root, _ := globFixture(t)
	env := newEnv(t, root)
	now := func() time.Time { return globNow }
	for name, tt := range map[string]struct {
		opts ReadOnlyOptions
		args string
	}{
		"glob_go.txt":  {ReadOnlyOptions{Now: now}, `{"pattern":"**/*.go"}`},
		"glob_cut.txt": {ReadOnlyOptions{Now: now, MaxGlobResults: 2}, `{"pattern":"**/*.go"}`},
		// The Go walk counts every ignored entry (ripgrep: the matching
		// files the rules left out; see TestGlobEnginesAgree).
		"glob_ignored.txt": {ReadOnlyOptions{Now: now, RipgrepPath: "-"}, `{"pattern":"**/out.go"}`},
	} {
		res := call(t, toolByName(t, "glob", tt.opts), env, tt.args)
		checkGolden(t, name, res.Text)
	}
}

func TestGlobConfinement(t *testing.T) {
	root, outside := globFixture(t)
	env := newEnv(t, root)
	tool := toolByName(t, "glob", ReadOnlyOptions{})
	res := call(t, tool, env, `{"pattern":"**/leak.go"}`)
	if strings.Contains(res.Text, "leak.go\n") || !strings.HasPrefix(res.Text, "No files found") {
		t.Errorf("glob followed a symlink out of the root:\n%s", res.Text)
	}
	for args, want := range map[string]error{
		mustJSON(t, map[string]any{"pattern": filepath.Join(outside, "*.go")}): tools.ErrOutsideRoots,
		`{"pattern":"*.go","dir_path":"outlink"}`:                              tools.ErrOutsideRoots,
		`{"pattern":"[x"}`: tools.ErrInvalidArgs,
		`{"pattern":""}`:   tools.ErrInvalidArgs,
	} {
		if _, err := tool.Prepare(env, json.RawMessage(args)); !errors.Is(err, want) {
			t.Errorf("Prepare(%s) = %v, want %v", args, err, want)
		}
	}
	if res := call(t, tool, env, `{"pattern":"*","dir_path":"nope"}`); !res.IsError {
		t.Errorf("missing dir_path: %+v", res)
	}
}

func TestGlobCancelled(t *testing.T) {
	root, _ := globFixture(t)
	env := newEnv(t, root)
	inv, err := toolByName(t, "glob", ReadOnlyOptions{}).Prepare(env, json.RawMessage(`{"pattern":"**"}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled) = %v", err)
	}
	// Cancelled after the walk has started: it must notice part-way.
	if _, err := inv.Execute(newCountdownCtx(3), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled during the walk) = %v", err)
	}
}
