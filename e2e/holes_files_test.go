//go:build unix

package e2e

import (
	"bufio"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/acptest"
)

// The tests of issue 14's holes 7 (a folder swapped for a symbolic link
// while the permission card is open), 8 (huge files) and 9 (temporary files
// left by crashed writes, files grep skips) run with a client that has no fs capabilities, so the agent reads and writes
// the disk itself.

// holeTree returns every file under dir with its content.
func holeTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[strings.TrimPrefix(p, dir)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHoleSymlinkSwappedWhileAsking opens the card for an edit of
// later/x.txt, and while it is open turns later into a symbolic link to an
// outside folder, then allows: nothing may land outside.
func TestHoleSymlinkSwappedWhileAsking(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		call string
	}{
		{"write_file new", modelCall("write_file", map[string]any{"file_path": "later/new.txt", "content": "PWNED\n"})},
		{"write_file over", modelCall("write_file", map[string]any{"file_path": "later/x.txt", "content": "PWNED\n"})},
		{"replace", modelCall("replace", map[string]any{"file_path": "later/x.txt", "old_string": "INSIDE", "new_string": "PWNED"})},
		{"write_file deeper", modelCall("write_file", map[string]any{"file_path": "later/sub/new.txt", "content": "PWNED\n"})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := workspace(t, map[string]string{"later/x.txt": "INSIDE\n"})
			outside := workspace(t, map[string]string{"x.txt": "OUTSIDE\n", "sub/keep.txt": "OUTSIDE\n"})
			before := holeTree(t, outside)
			fake := acptest.NewFake()
			fake.Answer = func(req acptest.PermissionRequest) (string, map[string]any) {
				later := filepath.Join(ws, "later")
				if err := os.Rename(later, later+".away"); err != nil {
					t.Error(err)
				}
				if err := os.Symlink(outside, later); err != nil {
					t.Error(err)
				}
				return "proceed_once", nil
			}
			ed := startAgent(t, agentOpts{script: holeTurn(tt.call), handler: fake.Handle})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "edit later/x.txt"))); got != "end_turn" {
				t.Fatalf("stopReason = %q", got)
			}
			if len(fake.Permissions) != 1 || !strings.Contains(fake.Permissions[0].ToolCall.Title, "later/") {
				t.Fatalf("permission requests = %+v, want one for later/", fake.Permissions)
			}
			if after := holeTree(t, outside); !maps.Equal(before, after) {
				t.Errorf("outside folder changed:\nbefore %v\nafter  %v", before, after)
			}
			if got := readFile(t, filepath.Join(ws, "later.away", "x.txt")); got != "INSIDE\n" {
				t.Errorf("the original folder's file = %q", got)
			}
			if ups := toolUpdates(ed, id); !strings.Contains(ups, `"status":"failed"`) {
				t.Errorf("the call did not fail:\n%s", ups)
			}
			ed.Close()
		})
	}
}

// TestHoleHugeFiles gives the agent a 2 GiB file (sparse) and a text file
// over grep's size limit: read_file with limit 1 says binary without
// reading it, replace refuses it for its size, grep says which file it
// skipped, and the agent's peak memory stays far below the file.
func TestHoleHugeFiles(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"big.log": strings.Repeat("needle in a big log\n", 60_000)})
	huge := filepath.Join(ws, "huge.dat")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 2<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	fake := acptest.NewFake()
	// The real binary on purpose: the peak RSS checked below is its process's.
	ed := startAgent(t, agentOpts{binary: true, script: holeTurn(
		modelCall("read_file", map[string]any{"file_path": "huge.dat", "limit": 1}),
		modelCall("replace", map[string]any{"file_path": "huge.dat", "old_string": "a", "new_string": "b"}),
		modelCall("grep", map[string]any{"pattern": "needle"}),
	), handler: fake.Handle})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "look at huge.dat"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	ups := toolUpdates(ed, id)
	// The Go engine names every large file it skipped; ripgrep searches
	// them and names those whose matches it withheld (big.log: huge.dat is
	// binary, so it has none).
	large := regexp.MustCompile(`\((1 file|2 files) larger than 1\.0 MiB (was|were) not searched: big\.log(, huge\.dat)?\.\)`)
	if !large.MatchString(ups) {
		t.Errorf("no grep result names big.log as too large to show:\n%s", ups)
	}
	for _, want := range []string{
		"huge.dat: it is a binary file",
		"huge.dat is 2048.0 MiB, over the 20.0 MiB limit for editing",
	} {
		if !strings.Contains(ups, want) {
			t.Errorf("no tool result says %q:\n%s", want, ups)
		}
	}
	if len(fake.Permissions) != 0 {
		t.Errorf("asked %d times, want 0", len(fake.Permissions))
	}
	if rss, ok := holeAgentPeakRSS(); ok && rss > 512<<20 {
		t.Errorf("the agent's peak RSS is %d MiB; the 2 GiB file was read", rss>>20)
	}
	ed.Close()
}

// holeAgentPeakRSS returns the peak resident set size (Linux's VmHWM) of the
// companion process this test started, when /proc tells.
func holeAgentPeakRSS() (uint64, bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	me := strconv.Itoa(os.Getpid())
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil || !strings.Contains(string(stat), "(companion)") {
			continue
		}
		_, after, _ := strings.Cut(string(stat), ") ")
		if f := strings.Fields(after); len(f) < 2 || f[1] != me {
			continue
		}
		return holeVmHWM(filepath.Join("/proc", e.Name(), "status"))
	}
	return 0, false
}

func holeVmHWM(status string) (uint64, bool) {
	f, err := os.Open(status)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err == nil
		}
	}
	return 0, false
}

// TestHoleStaleTempFiles leaves the temporary files of crashed writes
// beside a file and checks the next write_file in that folder removes
// them, and only them.
func TestHoleStaleTempFiles(t *testing.T) {
	t.Parallel()
	gone := 1<<22 + 4242 // above Linux's default pid_max: no such process
	stale := []string{fmt.Sprintf(".a.txt.companion-%d-x1y2.tmp", gone), ".a.txt.companion-2716057731"}
	kept := []string{".a.txt.companion-notes", "notes.companion-1.txt"}
	files := map[string]string{"a.txt": "old\n"}
	for _, n := range append(stale, kept...) {
		files[n] = strings.Repeat("partial ", 1<<17)
	}
	ws := workspace(t, files)
	old := time.Now().Add(-time.Hour)
	for _, n := range append(stale, kept...) {
		if err := os.Chtimes(filepath.Join(ws, n), old, old); err != nil {
			t.Fatal(err)
		}
	}
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{handler: fake.Handle,
		script: holeTurn(modelCall("write_file", map[string]any{"file_path": "a.txt", "content": "new\n"}))})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "write a.txt"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	if got := readFile(t, filepath.Join(ws, "a.txt")); got != "new\n" {
		t.Errorf("a.txt = %q", got)
	}
	for _, n := range stale {
		if _, err := os.Lstat(filepath.Join(ws, n)); err == nil {
			t.Errorf("stale temporary file %s is still there", n)
		}
	}
	for _, n := range kept {
		if _, err := os.Lstat(filepath.Join(ws, n)); err != nil {
			t.Errorf("%s was removed: %v", n, err)
		}
	}
	ed.Close()
}
