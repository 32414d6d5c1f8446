//go:build unix

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"companion/internal/testkit/acptest"
)

// TestStaleTempsSweptAtStart leaves what a companion killed mid-write
// leaves (a partly written ".<name>.companion-<pid>-<random>.tmp" of a
// process that is gone) in folders nothing writes to again, and starts a
// session: the abandoned files are removed without any write, and only
// they: not a file a live writer still locks, not one written seconds
// ago, not names companion does not make.
func TestStaleTempsSweptAtStart(t *testing.T) {
	t.Parallel()
	gone := 1<<22 + 4243 // above Linux's default pid_max: no such process
	name := func(file string) string { return fmt.Sprintf(".%s.companion-%d-k3j9.tmp", file, gone) }
	stale := []string{name("a.txt"), "src/deep/" + name("b.go"), "src/.c.companion-2716057731"}
	locked, fresh := "src/"+name("locked.txt"), "src/"+name("fresh.txt")
	kept := []string{locked, fresh, "src/.d.companion-notes", "e.companion-1.tmp", ".git/" + name("config")}
	files := map[string]string{}
	for _, n := range append(stale, kept...) {
		files[n] = strings.Repeat("partial ", 1<<17)
	}
	ws := workspace(t, files)
	old := time.Now().Add(-time.Hour)
	for _, n := range append(stale, kept...) {
		if n == fresh {
			continue
		}
		if err := os.Chtimes(filepath.Join(ws, n), old, old); err != nil {
			t.Fatal(err)
		}
	}
	{
		f, err := os.Open(filepath.Join(ws, locked))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
	}
	ed := startAgent(t, agentOpts{handler: acptest.NewFake().Handle, script: `{"turns":[]}`})
	ed.Initialize(map[string]any{})
	ed.NewSession(ws)
	waitFor(t, func() bool {
		for _, n := range stale {
			if exists(filepath.Join(ws, n)) {
				return false
			}
		}
		return true
	}, "the stale temporary files to be removed")
	for _, n := range kept {
		if !exists(filepath.Join(ws, n)) {
			t.Errorf("%s was removed", n)
		}
	}
	ed.Close()
}
