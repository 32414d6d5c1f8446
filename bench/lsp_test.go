package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
	"companion/tools/lsp"
)

// BenchmarkLSPFirstDiagnostics measures, with gopls on a small module,
// how long after an edit its diagnostics are in hand: cold (the server
// started by the edit, loading the module; each run a new server) and
// warm (the server already running; each run a new edit), with gopls
// publishing (push) and answering pulls (pull). Run with
//
//	go test -run '^$' -bench LSPFirstDiagnostics -benchtime 5x ./bench
//
// The targets: ≤ 2 s cold, ≤ 300 ms warm.
func BenchmarkLSPFirstDiagnostics(b *testing.B) {
	testio.NeedGopls(b)
	dir := b.TempDir()
	files := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n",
		"util/util.go": "package util\n\n// Twice doubles n.\nfunc Twice(n int) int { return 2 * n }\n",
		"main.go":      "package main\n\nimport \"example.com/m/util\"\n\nfunc main() { println(util.Twice(2)) }\n"}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "main.go")
	edit := func(i int) string {
		return fmt.Sprintf("package main\n\nimport \"example.com/m/util\"\n\nfunc main() {\n\tx%d := util.Twice(%d)\n}\n", i, i)
	}
	diagnose := func(b *testing.B, s *lsp.Session, i int) {
		if _, ok := s.Diagnose(context.Background(), path, edit(i)); !ok {
			b.Fatal("no diagnostics")
		}
	}
	// push: gopls as it is, publishing; pull: told to answer
	// textDocument/diagnostic (its pullDiagnostics option).
	for _, mode := range []struct{ name, settings string }{
		{"push", ""}, {"pull", `{"gopls": {"initializationOptions": {"pullDiagnostics": true}}}`},
	} {
		var settings json.RawMessage
		if mode.settings != "" {
			settings = json.RawMessage(mode.settings)
		}
		servers, _ := lsp.Resolve(settings, nil, nil)
		b.Run(mode.name+"/cold", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				s := lsp.NewPool(lsp.PoolOptions{}).Session(lsp.SessionOptions{Servers: servers, Roots: roots})
				diagnose(b, s, i)
				b.StopTimer()
				s.Close()
				b.StartTimer()
			}
		})
		b.Run(mode.name+"/warm", func(b *testing.B) {
			s := lsp.NewPool(lsp.PoolOptions{}).Session(lsp.SessionOptions{Servers: servers, Roots: roots})
			defer s.Close()
			diagnose(b, s, -1)
			for i := 0; b.Loop(); i++ {
				diagnose(b, s, i)
			}
		})
	}
}

// BenchmarkLSPNoServer measures what an edit pays for language servers
// when none is installed for its file: the built-in defaults resolved
// with nothing on PATH (clangd absent), then the diagnostics step for a C
// file. With COMPANION_BENCH_TREE set (make bench-linux's Linux tree) the
// file is kernel/sched/core.c there; else a file in a temporary folder.
//
//	go test -run '^$' -bench LSPNoServer ./bench
func BenchmarkLSPNoServer(b *testing.B) {
	dir := os.Getenv("COMPANION_BENCH_TREE")
	path := filepath.Join(dir, "kernel", "sched", "core.c")
	if dir == "" {
		dir = b.TempDir()
		path = filepath.Join(dir, "core.c")
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		b.Fatal(err)
	}
	missing := func(string) (string, error) { return "", exec.ErrNotFound }
	servers, _ := lsp.Resolve(nil, nil, missing)
	s := lsp.NewPool(lsp.PoolOptions{}).Session(lsp.SessionOptions{Servers: servers, Roots: roots})
	defer s.Close()
	for b.Loop() {
		if _, ok := s.Diagnose(context.Background(), path, "int main(void) { return 0; }\n"); ok {
			b.Fatal("diagnostics with no server installed")
		}
	}
}
