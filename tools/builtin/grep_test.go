package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// grepFixture is the workspace plus files that test the edges both engines
// must treat alike: a long line, CRLF endings, a binary file, a file over the
// size limit, and symlinks (to a file and a directory) leading out.
func grepFixture(t *testing.T) string {
	t.Helper()
	root := newSandbox(t, "workspace.txtar")
	testio.WriteFile(t, filepath.Join(root, "data", "long.txt"), []byte("hello "+strings.Repeat("x", 600)+"\n"))
	testio.WriteFile(t, filepath.Join(root, "data", "crlf.txt"), []byte("hello crlf\r\nsay hello\r\n"))
	testio.WriteFile(t, filepath.Join(root, "data", "blob.bin"), []byte("hello\x00binary hello\n"))
	testio.WriteFile(t, filepath.Join(root, "data", "huge.txt"), []byte("hello "+strings.Repeat("y\n", 2000)))
	testio.WriteFile(t, filepath.Join(root, "data", "latin1.txt"), []byte("caf\xe9 hello\n"))
	outside := testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(outside, "leak.txt"), []byte("hello leak\n"))
	if err := os.Symlink(outside, filepath.Join(root, "outdir")); err != nil {
		t.Skip(err)
	}
	if err := os.Symlink(filepath.Join(outside, "leak.txt"), filepath.Join(root, "data", "leak.txt")); err != nil {
		t.Fatal(err)
	}
	return root
}

// grepCases are run through both engines; their output is golden.
var grepCases = []struct {
	golden string
	opts   ReadOnlyOptions
	args   string
}{
	{"grep_hello.txt", ReadOnlyOptions{MaxGrepFileSize: 1000}, `{"pattern":"hello"}`},
	{"grep_include_go.txt", ReadOnlyOptions{}, `{"pattern":"hello","include":"*.go"}`},
	{"grep_include_path.txt", ReadOnlyOptions{}, `{"pattern":"(?i)hello","include":"src/**/*.go"}`},
	{"grep_include_braces.txt", ReadOnlyOptions{}, `{"pattern":"hello","include":"*.{ts,tsx}"}`},
	{"grep_dir.txt", ReadOnlyOptions{}, `{"pattern":"[Hh]ello","dir_path":"src"}`},
	{"grep_cut.txt", ReadOnlyOptions{MaxGrepMatches: 3}, `{"pattern":"hello"}`},
	{"grep_line_end.txt", ReadOnlyOptions{}, `{"pattern":"hello$","dir_path":"data"}`},
	{"grep_none.txt", ReadOnlyOptions{}, `{"pattern":"no such text","include":"*.md"}`},
}

// runGrep runs one case with the given ripgrep setting.
func runGrep(t *testing.T, root, rg string, opts ReadOnlyOptions, args string) *tools.Result {
	t.Helper()
	opts.RipgrepPath = rg
	return call(t, toolByName(t, "grep", opts), newEnv(t, root), args)
}

func TestGrepGo(t *testing.T) {
	root := grepFixture(t)
	for _, tc := range grepCases {
		t.Run(tc.golden, func(t *testing.T) {
			res := runGrep(t, root, "-", tc.opts, tc.args)
			if raw := res.Raw.(GrepRaw); raw.Engine != "go" {
				t.Errorf("engine = %q, want go", raw.Engine)
			}
			checkGolden(t, tc.golden, res.Text)
		})
	}
}

// TestGrepRipgrep checks ripgrep gives exactly the Go search's output.
func TestGrepRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg is not installed")
	}
	root := grepFixture(t)
	for _, tc := range grepCases {
		t.Run(tc.golden, func(t *testing.T) {
			want := runGrep(t, root, "-", tc.opts, tc.args)
			got := runGrep(t, root, rg, tc.opts, tc.args)
			if raw := got.Raw.(GrepRaw); raw.Engine != "ripgrep" {
				t.Errorf("engine = %q, want ripgrep", raw.Engine)
			}
			if got.Text != want.Text {
				t.Errorf("ripgrep output differs from Go's:\n--- ripgrep ---\n%s\n--- go ---\n%s", got.Text, want.Text)
			}
		})
	}
}

func TestGrepFallsBackToGo(t *testing.T) {
	root := grepFixture(t)
	const args = `{"pattern":"hello","include":"*.go"}`
	want := runGrep(t, root, "-", ReadOnlyOptions{}, args)
	res := runGrep(t, root, filepath.Join(root, "no-such-rg"), ReadOnlyOptions{}, args)
	if raw := res.Raw.(GrepRaw); raw.Engine != "go" || res.Text != want.Text {
		t.Errorf("with a missing rg: engine %q, text\n%s", raw.Engine, res.Text)
	}
}

func TestGrepPrepare(t *testing.T) {
	root := grepFixture(t)
	env := newEnv(t, root)
	tool := toolByName(t, "grep", ReadOnlyOptions{RipgrepPath: "-"})
	for args, want := range map[string]error{
		`{"pattern":"a(b"}`:                   tools.ErrInvalidArgs,
		`{"pattern":""}`:                      tools.ErrInvalidArgs,
		`{"pattern":"a","include":"[x"}`:      tools.ErrInvalidArgs,
		`{"pattern":"a","dir_path":"/"}`:      tools.ErrOutsideRoots,
		`{"pattern":"a","dir_path":"outdir"}`: tools.ErrOutsideRoots,
		`{"dir_path":"src"}`:                  tools.ErrInvalidArgs,
	} {
		if _, err := tool.Prepare(env, json.RawMessage(args)); !errors.Is(err, want) {
			t.Errorf("Prepare(%s) = %v, want %v", args, err, want)
		}
	}
	if res := call(t, tool, env, `{"pattern":"a","dir_path":"nope"}`); !res.IsError {
		t.Errorf("missing dir_path: %+v", res)
	}
}

func TestGrepGoCancelled(t *testing.T) {
	root := grepFixture(t)
	env := newEnv(t, root)
	inv, err := toolByName(t, "grep", ReadOnlyOptions{RipgrepPath: "-"}).Prepare(env, json.RawMessage(`{"pattern":"hello"}`))
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
