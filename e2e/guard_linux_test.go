//go:build linux

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"companion/internal/testkit/acptest"
	"companion/tools/procgroup"
)

// TestInProcessCommandGuarded: a shell command an in-process agent runs
// really runs, as the test process's child and leader of a group of its
// own, under a new guard whose lifeline only the test process (companion,
// here) holds; the guard leaves once the command's group is gone.
func TestInProcessCommandGuarded(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash: procgroup guards with the running executable, and a test binary is none")
	}
	ws := workspace(t, nil)
	gate, started, done := filepath.Join(ws, "gate"), filepath.Join(ws, "STARTED"), filepath.Join(ws, "DONE")
	if err := syscall.Mkfifo(gate, 0o600); err != nil {
		t.Fatal(err)
	}
	line := fmt.Sprintf("touch %s; read -r x < %s; touch %s", started, gate, done)
	ed := inProcess(t, `{"turns":[{"chunks":[`+shellCall(line)+`]},{"chunks":[{"text":"ok"}]}]}`, acptest.NewFake().Handle)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	before := guards()
	resp := ed.Prompt(id, "go")
	waitFor(t, func() bool { return exists(started) }, "the command to start")
	var cmd proc
	for _, p := range procs() {
		if strings.Contains(p.cmdline, gate) {
			cmd = p
		}
	}
	if cmd.pid == 0 || cmd.ppid != os.Getpid() || cmd.pgid != cmd.pid || cmd.pgid == syscall.Getpgrp() {
		t.Errorf("command %+v: want the test process's child leading a group of its own", cmd)
	}
	var fresh []proc
	for _, g := range guards() {
		if before[g.pid].pid == 0 {
			fresh = append(fresh, g)
		}
	}
	if len(fresh) != 1 || !holdsLifeline(fresh[0].pid) {
		t.Fatalf("new guards %+v: want one, whose lifeline this process holds", fresh)
	}
	release, err := os.OpenFile(gate, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(release, "go")
	release.Close()
	if got := ed.StopReason(ed.Wait(resp)); got != "end_turn" || !exists(done) {
		t.Fatalf("stopReason = %q, DONE exists: %v\n%s", got, exists(done), ed.Stderr())
	}
	waitFor(t, func() bool { return guards()[fresh[0].pid].pid == 0 }, "the guard to leave with its group")
	ed.Close()
}

// guards returns the command guards the test process started, by pid:
// its children in a group of their own running the bash guard or
// `__guard`.
func guards() map[int]proc {
	out := map[int]proc{}
	for _, p := range procs() {
		if p.ppid == os.Getpid() && p.pgid == p.pid &&
			(strings.Contains(p.cmdline, "companion-guard") || strings.Contains(p.cmdline, " "+procgroup.GuardCommand)) {
			out[p.pid] = p
		}
	}
	return out
}

// holdsLifeline reports whether the test process holds the other end of
// the pipe that is process pid's standard input.
func holdsLifeline(pid int) bool {
	in, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "fd", "0"))
	if err != nil || !strings.HasPrefix(in, "pipe:") {
		return false
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, fd := range fds {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && l == in {
			return true
		}
	}
	return false
}

// TestMainServesGuard: this test binary run as `<exe> __guard` is the
// guard (TestMain dispatches it as cmd/companion does), not a second test
// run: given a group on its lifeline, it kills the group when the
// lifeline ends.
func TestMainServesGuard(t *testing.T) {
	t.Parallel()
	if os.Getenv("COMPANION_E2E_GUARD_CHILD") != "" {
		t.Skip("inside a guard that failed to dispatch") // never recurse
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sleeper := exec.Command("sleep", "30")
	sleeper.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer sleeper.Process.Kill()
	guard := exec.Command(exe, procgroup.GuardCommand)
	guard.Env = append(os.Environ(), "COMPANION_E2E_GUARD_CHILD=1")
	lifeline, err := guard.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := guard.Start(); err != nil {
		t.Fatal(err)
	}
	defer guard.Process.Kill()
	fmt.Fprintf(lifeline, "%d\n", sleeper.Process.Pid)
	lifeline.Close()
	if err := sleeper.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the guarded sleep ended with %v, want killed", err)
	}
	if err := guard.Wait(); err != nil {
		t.Errorf("guard: %v", err)
	}
}
