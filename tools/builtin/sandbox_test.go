package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/golden")

// parseTxtar splits a txtar archive into its files, in order. It is the
// whole format: a comment, then "-- name --" lines each starting a file.
func parseTxtar(data []byte) (names []string, files map[string][]byte) {
	files = map[string][]byte{}
	cur := ""
	for line := range bytes.Lines(data) {
		s := strings.TrimRight(string(line), "\r\n")
		if strings.HasPrefix(s, "-- ") && strings.HasSuffix(s, " --") && len(s) > 6 {
			cur = strings.TrimSpace(s[3 : len(s)-3])
			names = append(names, cur)
			files[cur] = []byte{}
			continue
		}
		if cur != "" {
			files[cur] = append(files[cur], line...)
		}
	}
	return names, files
}

// newSandbox writes the txtar archive testdata/<archive> into a fresh
// directory and returns its real path.
func newSandbox(t *testing.T, archive string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", archive))
	if err != nil {
		t.Fatal(err)
	}
	root := testio.RealTempDir(t)
	names, files := parseTxtar(data)
	for _, name := range names {
		testio.WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), files[name])
	}
	return root
}

// newEnv returns an Env over the given roots that reads from disk.
func newEnv(t *testing.T, primary string, extra ...string) *tools.Env {
	t.Helper()
	roots, err := tools.NewRoots(primary, extra...)
	if err != nil {
		t.Fatal(err)
	}
	return &tools.Env{Roots: roots, Log: slog.New(slog.DiscardHandler)}
}

// toolByName returns a read-only tool built with opts.
func toolByName(t *testing.T, name string, opts ReadOnlyOptions) tools.Tool {
	t.Helper()
	tool, ok := tools.NewRegistry(ReadOnly(opts)...).Get(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	return tool
}

// call prepares and runs a tool call, failing the test on any error.
func call(t *testing.T, tool tools.Tool, env *tools.Env, args string) *tools.Result {
	t.Helper()
	inv, err := tool.Prepare(env, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s(%s): Prepare: %v", tool.Name(), args, err)
	}
	res, err := inv.Execute(context.Background(), nil)
	if err != nil {
		t.Fatalf("%s(%s): Execute: %v", tool.Name(), args, err)
	}
	return res
}

// mustJSON marshals v for use as tool arguments.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// checkGolden compares got with testdata/golden/<name>, rewriting it with
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	testio.Golden(t, filepath.Join("testdata", "golden", name), []byte(got), *update)
}

// countdownCtx is a context that becomes cancelled after its Err method has
// been called n times: it cancels a walk part-way without any timing.
type countdownCtx struct {
	context.Context
	// mu guards n.
	mu   sync.Mutex
	n    int
	once sync.Once
	done chan struct{}
}

func newCountdownCtx(n int) *countdownCtx {
	return &countdownCtx{Context: context.Background(), n: n, done: make(chan struct{})}
}

func (c *countdownCtx) Done() <-chan struct{} { return c.done }

func (c *countdownCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n > 0 {
		c.n--
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}
