package procgroup

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// parentEnv makes the test binary play companion: start a command
// guarded by the guard named by guardEnv ("bash" or "self") that touches
// the file named by the variable once a gate file (its name + ".gate") is there, print the command's
// process group and wait to be killed.
const parentEnv, guardEnv = "PROCGROUP_TEST_MARKER", "PROCGROUP_TEST_GUARD"

// TestMain lets the test binary be the guard and the parent as well.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == GuardCommand {
		os.Exit(Guard(os.Args[2:]))
	}
	if marker := os.Getenv(parentEnv); marker != "" {
		os.Exit(playParent(marker, os.Getenv(guardEnv)))
	}
	if marker := os.Getenv(daemonEnv); marker != "" {
		os.Exit(playDaemonParent(marker, os.Getenv(guardEnv)))
	}
	os.Exit(m.Run())
}

// playParent starts `wait for marker.gate; touch marker` under the guard named kind
// and waits forever.
func playParent(marker, kind string) int {
	cmd := exec.Command("sh", "-c", "while [ ! -e "+marker+".gate ]; do sleep 0.01; done; touch "+marker)
	if err := start(cmd, testGuards()[kind]); err != nil {
		return 1
	}
	fmt.Println(cmd.Process.Pid)
	select {}
}

// testGuards are the guards under test: the bash script and this test
// binary, which dispatches GuardCommand in TestMain.
func testGuards() map[string][]string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	g := map[string][]string{"self": {exe, GuardCommand}}
	if bash, err := exec.LookPath("bash"); err == nil {
		g["bash"] = []string{bash, "-c", shellGuard, "companion-guard"}
	}
	return g
}

// TestGuardKillsGroupWhenParentDies kills the parent with SIGKILL while
// its command runs, under each guard: the command's group is gone within
// a second and its side effect never happens.
func TestGuardKillsGroupWhenParentDies(t *testing.T) {
	for kind := range testGuards() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			killParent(t, kind)
		})
	}
}

// killParent runs playParent with the guard kind, kills it and checks
// that its command dies with it.
func killParent(t *testing.T, kind string) {
	marker := filepath.Join(t.TempDir(), "MARKER")
	parent, pgid := startPlayer(t, parentEnv+"="+marker, guardEnv+"="+kind)
	waitGuard(t, parent.Process.Pid, testGuards()[kind])
	parent.Process.Kill()
	_ = parent.Wait()
	// The command waits for a gate rather than a clock, so a loaded
	// machine cannot make it finish first. The bound only keeps a broken
	// guard from hanging the test; it is no measure of speed.
	deadline := time.Now().Add(20 * time.Second)
	for len(members(pgid)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if m := members(pgid); len(m) > 0 {
		Kill(pgid)
		t.Fatalf("processes %v of the command's group outlived its parent", m)
	}
	if err := os.WriteFile(marker+".gate", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the command ran to its end after its parent died (marker: %v)", err)
	}
}

// startPlayer starts the test binary playing a companion (TestMain) with
// env added, and returns it and the number it prints first.
func startPlayer(t *testing.T, env ...string) (*exec.Cmd, int) {
	t.Helper()
	parent := exec.Command(os.Args[0])
	parent.Env = append(os.Environ(), env...)
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	n, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		parent.Process.Kill()
		t.Fatalf("parent printed %q: %v", line, err)
	}
	return parent, n
}

// TestGuardLeavesCommandAlone runs guarded commands to their end: exit
// codes and deaths by signal are the command's own, and the guard is gone
// once the group is.
func TestGuardLeavesCommandAlone(t *testing.T) {
	for kind, guard := range testGuards() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			runToEnd(t, guard)
		})
	}
}

// runToEnd runs commands to their end under guard.
func runToEnd(t *testing.T, guard []string) {
	for _, tc := range []struct {
		script string
		code   int
		sig    syscall.Signal
	}{
		{"exit 3", 3, 0},
		{"echo out; sleep 0.2", 0, 0},
		{"kill -TERM $$", -1, syscall.SIGTERM},
		{"kill -ABRT $$", -1, syscall.SIGABRT},
	} {
		cmd := exec.Command("sh", "-c", tc.script)
		if err := start(cmd, guard); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if got := cmd.ProcessState.ExitCode(); got != tc.code || (tc.sig != 0 && ws.Signal() != tc.sig) {
			t.Errorf("%s: exit %d signal %v, want %d %v", tc.script, got, ws.Signal(), tc.code, tc.sig)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(guards(os.Getpid(), guard)) > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if g := guards(os.Getpid(), guard); len(g) > 0 {
			t.Errorf("%s: guard %v still running after its group ended", tc.script, g)
		}
	}
}

// TestGuardEndsWhenStartFails starts a command that cannot start: the
// error is the command's, and its guard exits.
func TestGuardEndsWhenStartFails(t *testing.T) {
	for kind, guard := range testGuards() {
		cmd := exec.Command("sh")
		cmd.Dir = filepath.Join(t.TempDir(), "missing")
		if err := start(cmd, guard); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: start in a missing directory: %v", kind, err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for len(guards(os.Getpid(), guard)) > 0 && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if g := guards(os.Getpid(), guard); len(g) > 0 {
			t.Errorf("%s: guard %v still running", kind, g)
		}
	}
}

// TestParseGroup takes only ids that cannot reach every process.
func TestParseGroup(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
		ok   bool
	}{{"1234\n", 1234, true}, {"2", 2, true}, {"1\n", 0, false}, {"0\n", 0, false}, {"-1\n", 0, false},
		{"-5\n", 0, false}, {"x\n", 0, false}, {"\n", 0, false}} {
		got, ok := parseGroup(tc.line)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("parseGroup(%q) = %d, %v; want %d, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// waitGuard waits until a guard started by parent runs.
func waitGuard(t *testing.T, parent int, guard []string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(guards(parent, guard)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no guard started")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// guards returns the pids of the live processes running guard that are
// children of parent.
func guards(parent int, guard []string) []int {
	var pids []int
	for _, pid := range members(0) {
		b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		if err == nil && slices.Equal(args, guard) && ppid(pid) == parent {
			pids = append(pids, pid)
		}
	}
	return pids
}

// members returns the pids of the live processes (zombies left for a
// parent that does not reap are not) of process group pgid, or of every
// group when pgid is 0.
func members(pgid int) []int {
	ents, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
		i := strings.LastIndexByte(string(b), ')')
		if err != nil || i < 0 {
			continue
		}
		f := strings.Fields(string(b)[i+1:])
		if len(f) > 2 && f[0] != "Z" && (pgid == 0 || f[2] == strconv.Itoa(pgid)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// ppid returns the parent of pid, or 0.
func ppid(pid int) int {
	b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b)[i+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// BenchmarkStart runs `true` to its end, unguarded and under each guard:
// the difference is a guard's cost to a command's latency (starting it;
// its checks run beside the command). The self guard is this test binary,
// or the binary named by $PROCGROUP_BENCH_GUARD (a built companion, to
// measure the real one).
func BenchmarkStart(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true")
	}
	guards := testGuards()
	if g := os.Getenv("PROCGROUP_BENCH_GUARD"); g != "" {
		guards["self"] = []string{g, GuardCommand}
	}
	guards["plain"] = nil
	for _, name := range []string{"plain", "bash", "self"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				cmd := exec.Command(truePath)
				if err := start(cmd, guards[name]); err != nil {
					b.Fatal(err)
				}
				_ = cmd.Wait()
			}
		})
	}
}
