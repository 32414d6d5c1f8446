//go:build unix

package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"companion/internal/testkit/testio"
)

// fakeRipgrep writes an executable shell script standing in for rg.
func fakeRipgrep(t *testing.T, script string) string {
	t.Helper()
	path := filepath.Join(testio.RealTempDir(t), "rg")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// rgMatchLine is one line of rg --json output for a match.
func rgMatchLine(path string, line int, text string) string {
	return fmt.Sprintf(`{"type":"match","data":{"path":{"text":%q},"lines":{"text":%q},"line_number":%d}}`,
		path, text+"\n", line)
}

func TestGrepRipgrepFiltersAndStops(t *testing.T) {
	root := grepFixture(t)
	var lines []string
	lines = append(lines,
		rgMatchLine("./debug.log", 1, "ignored by *.log"),
		rgMatchLine("./private/notes.txt", 1, "ignored by .geminiignore"),
		rgMatchLine("./src/util/generated.go", 1, "ignored by the nested .gitignore"),
	)
	// rg's threads print files in any order: the first lines in walk
	// order are shown, whichever file came first.
	for i := 1; i <= 3; i++ {
		lines = append(lines, rgMatchLine("./zz.go", i, fmt.Sprintf("later %d", i)))
	}
	for i := 1; i <= 10; i++ {
		lines = append(lines, rgMatchLine("./main.go", i, fmt.Sprintf("hello %d", i)))
	}
	rg := fakeRipgrep(t, "cat <<'EOF'\n"+strings.Join(lines, "\n")+"\nEOF")
	res := runGrep(t, root, rg, ReadOnlyOptions{MaxGrepMatches: 3}, `{"pattern":"hello"}`)
	want := "Found the first 3 matches for pattern \"hello\" in the session root:\n---\nFile: main.go\n" +
		"L1: hello 1\nL2: hello 2\nL3: hello 3\n---\n" +
		"(There are more than 3 matches; use a more specific pattern, dir_path or include to see the rest.)"
	if res.Text != want {
		t.Errorf("got\n%s\nwant\n%s", res.Text, want)
	}
	if raw := res.Raw.(GrepRaw); raw.Engine != "ripgrep" || !raw.Truncated || raw.Matches != 3 {
		t.Errorf("raw = %+v", raw)
	}
}

func TestGrepRipgrepErrorFallsBack(t *testing.T) {
	root := grepFixture(t)
	rg := fakeRipgrep(t, "echo 'regex parse error' >&2; exit 2")
	const args = `{"pattern":"hello","dir_path":"src"}`
	want := runGrep(t, root, "-", ReadOnlyOptions{}, args)
	res := runGrep(t, root, rg, ReadOnlyOptions{}, args)
	if raw := res.Raw.(GrepRaw); raw.Engine != "go" || res.Text != want.Text {
		t.Errorf("engine %q, text\n%s\nwant\n%s", raw.Engine, res.Text, want.Text)
	}
}

func TestGrepRipgrepNoMatch(t *testing.T) {
	root := grepFixture(t)
	rg := fakeRipgrep(t, "exit 1")
	res := runGrep(t, root, rg, ReadOnlyOptions{}, `{"pattern":"hello"}`)
	if raw := res.Raw.(GrepRaw); raw.Engine != "ripgrep" || !strings.HasPrefix(res.Text, "No matches found") {
		t.Errorf("engine %q, text %s", raw.Engine, res.Text)
	}
}

// TestGrepRipgrepCancelled cancels the call while rg runs: Execute must kill
// it and return. The fake rg signals through a FIFO once it has started.
func TestGrepRipgrepCancelled(t *testing.T) {
	root := grepFixture(t)
	fifo := filepath.Join(testio.RealTempDir(t), "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	rg := fakeRipgrep(t, fmt.Sprintf("echo started > %q; exec sleep 600", fifo))
	inv, err := toolByName(t, "grep", ReadOnlyOptions{RipgrepPath: rg}).
		Prepare(newEnv(t, root), json.RawMessage(`{"pattern":"hello"}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer cancel()
		if f, err := os.Open(fifo); err == nil { // blocks until rg has started
			_, _ = f.Read(make([]byte, 16))
			_ = f.Close()
		}
	}()
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute = %v, want context.Canceled", err)
	}
}
