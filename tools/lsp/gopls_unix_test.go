//go:build unix

package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"companion/internal/testkit/testio"
	"companion/lspclient"
	"companion/tools"
)

// goplsSession returns a session with gopls over a module in dir made of
// files, or skips when gopls is not installed.
func goplsSession(t *testing.T, files map[string]string) (*Session, string) {
	t.Helper()
	return goplsSessionWith(t, files, nil)
}

// goplsSessionWith is goplsSession with the user's "lsp" settings.
func goplsSessionWith(t *testing.T, files map[string]string, settings json.RawMessage) (*Session, string) {
	t.Helper()
	testio.NeedGopls(t)
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	roots, err := tools.NewRoots(dir)
	if err != nil {
		t.Fatal(err)
	}
	servers, problems := Resolve(settings, nil, nil)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	pool := NewPool(PoolOptions{Name: "companion-test"})
	// gopls's first load of the module is what the cold wait bounds; on a
	// loaded CI machine it can outlast the product's 10 s, and these tests
	// are about what gopls reports, not that bound.
	s := pool.Session(SessionOptions{Servers: servers, Roots: roots, ColdWait: time.Minute})
	t.Cleanup(s.Close)
	return s, dir
}

func TestGoplsDiagnosesUnusedVariable(t *testing.T) {
	t.Parallel()
	s, dir := goplsSession(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n"})
	path := filepath.Join(dir, "main.go")
	text := "package main\n\nfunc main() {\n\tx := 1\n}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	list, ok := s.Diagnose(context.Background(), path, text)
	if !ok {
		t.Fatal("no diagnostics from gopls")
	}
	var msgs []string
	for _, d := range list {
		msgs = append(msgs, d.Message)
	}
	if !strings.Contains(strings.Join(msgs, "\n"), "declared and not used") {
		t.Errorf("diagnostics = %q, want one saying declared and not used", msgs)
	}
}

// TestGoplsRestartsAfterCrash: a killed server is reported crashed, and
// the next use after its backoff starts it again.
func TestGoplsRestartsAfterCrash(t *testing.T) {
	t.Parallel()
	s, dir := goplsSession(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n"})
	path := filepath.Join(dir, "main.go")
	text := "package main\n\nfunc main() {\n\tx := 1\n}\n"
	if _, ok := s.Diagnose(context.Background(), path, text); !ok {
		t.Fatal("no diagnostics before the crash")
	}
	st := s.pool.Status()
	if len(st) != 1 || st[0].PID == 0 {
		t.Fatalf("status = %+v", st)
	}
	if err := syscall.Kill(st[0].PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sawCrash := false
	for ctx.Err() == nil {
		sawCrash = sawCrash || s.pool.Status()[0].State == StateCrashed
		if _, ok := s.Diagnose(ctx, path, text); ok && sawCrash {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond): // polling for the restart
		}
	}
	if got := s.pool.Status()[0]; !sawCrash || got.State != StateRunning || got.Restarts != 1 {
		t.Errorf("after the crash: saw crash %v, status %+v", sawCrash, got)
	}
}

// TestGoplsPullDiagnostics: gopls told to answer pulls (its
// pullDiagnostics option) says diagnosticProvider, and the unused
// variable comes back from textDocument/diagnostic: the report is kept
// for the file, and a second pull of the same text gives the same list.
func TestGoplsPullDiagnostics(t *testing.T) {
	t.Parallel()
	s, dir := goplsSessionWith(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {}\n"}, json.RawMessage(`{"gopls": {"initializationOptions": {"pullDiagnostics": true}}}`))
	path := filepath.Join(dir, "main.go")
	text := "package main\n\nfunc main() {\n\tx := 1\n}\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		list, ok := s.Diagnose(context.Background(), path, text)
		var msgs []string
		for _, d := range list {
			msgs = append(msgs, d.Message)
		}
		if !ok || !strings.Contains(strings.Join(msgs, "\n"), "declared and not used") {
			t.Errorf("pull %d: diagnostics = %q (ok %v), want one saying declared and not used", i+1, msgs, ok)
		}
	}
	e := s.pool.entry(key{"gopls", dir})
	e.mu.Lock()
	in := e.in
	e.mu.Unlock()
	if in == nil || !in.client.PullsDiagnostics() {
		t.Fatal("gopls is not running or did not say diagnosticProvider")
	}
	if st := s.pool.Status(); len(st) != 1 || !strings.Contains(st[0].String(), "diagnostics pulled") {
		t.Errorf("status %v does not say the diagnostics are pulled", st)
	}
	if in.lastPull(lspclient.FileURI(path)).list == nil {
		t.Error("no pulled report kept for main.go: the diagnostics were not pulled")
	}
}
