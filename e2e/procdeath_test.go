package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/acptest"
)

// TestCommandsDieWithAgent kills companion with SIGKILL while a command it
// started runs (in the foreground, in the background, left behind by a
// foreground command that ended, left behind in a session of its own by
// setsid, and on a PATH without bash, where companion guards and keeps
// with itself): within a second no process of the command's group is
// left, and the command's last step never happens.
func TestCommandsDieWithAgent(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("commands are guarded on Linux only")
	}
	for _, tc := range []struct {
		name, line                 string
		background, noBash, daemon bool
	}{
		{"foreground", "touch %s; sleep 2; touch %s", false, false, false},
		{"background", "touch %s; sleep 2; touch %s", true, false, false},
		{"left behind", "(touch %s; sleep 2; touch %s) &", false, false, false},
		{"no bash", "touch %s; sleep 2; touch %s", false, true, false},
		{"setsid daemon", daemonLine, false, false, true},
		{"setsid daemon, no bash", daemonLine, false, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := workspace(t, nil)
			started, marker := filepath.Join(ws, "STARTED"), filepath.Join(ws, "MARKER")
			line := fmt.Sprintf(tc.line, started, marker)
			if tc.daemon {
				line = fmt.Sprintf(tc.line, started, marker, marker)
			}
			call := fmt.Sprintf(`{"functionCall":{"name":"run_shell_command","args":{"command":%q,"description":"test","is_background":%v}}}`,
				line, tc.background)
			fake := acptest.NewFake()
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
			var extra []string
			if tc.noBash {
				extra = append(extra, "PATH="+pathWithout(t, "bash", "sh", "sleep", "touch", "setsid"))
			}
			// The real binary on purpose: the test kills the agent's process.
			ed := startAgent(t, agentOpts{binary: true, script: `{"turns":[{"chunks":[` + call + `]},{"chunks":[{"text":"ok"}]}]}`,
				env: env(t, extra...), handler: fake.Handle})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			ed.Prompt(id, "go")
			waitFor(t, func() bool { _, err := os.Stat(started); return err == nil }, "the command to start")
			pgid := groupOf(marker)
			if pgid == 0 {
				t.Fatal("no process of the command found")
			}
			if tc.daemon {
				waitKept(pgid)
				ed.Kill()
				waitFor(t, func() bool { return len(groupMembers(pgid)) == 0 }, "the daemon to die with companion")
				if err := os.WriteFile(marker+".gate", nil, 0o600); err != nil {
					t.Fatal(err)
				}
				time.Sleep(500 * time.Millisecond) // a daemon still running touches the marker at once
				if exists(marker) {
					t.Error("the daemon ran on after companion died")
				}
				return
			}
			ed.Kill()
			deadline := time.Now().Add(time.Second)
			for len(groupMembers(pgid)) > 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if m := groupMembers(pgid); len(m) > 0 {
				t.Errorf("processes %v of the command's group outlived companion by a second", m)
			}
			time.Sleep(3 * time.Second)
			if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the command ran to its end after companion died (marker: %v)", err)
			}
		})
	}
}

// daemonLine leaves a daemon in a session of its own (setsid) that
// touches the marker once a gate file is there: touch STARTED, wait for
// MARKER.gate, touch MARKER.
const daemonLine = "setsid -f sh -c 'touch %s; while [ ! -e %s.gate ]; do sleep 0.01; done; touch %s'"

// waitKept waits (up to acptest.Timeout) until companion has adopted the
// daemon pid (the setsid that started it has exited) and started its
// keeper, which it does to tell it of the first adoptee.
func waitKept(pid int) {
	kept := func() bool {
		var agent int
		for _, p := range procs() {
			if p.pid == pid {
				agent = p.ppid
			}
		}
		for _, p := range procs() {
			if p.ppid == agent && agent != 0 && (strings.Contains(p.cmdline, "companion-keeper") || strings.Contains(p.cmdline, "__guard adopted")) {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(acptest.Timeout)
	for !kept() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	// Without a keeper the test goes on: the marker is the proof.
}

// pathWithout returns a directory for PATH that holds the named programs
// (found on the current PATH) and not the one left out.
func pathWithout(t *testing.T, out string, progs ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range progs {
		src, err := exec.LookPath(p)
		if err != nil {
			t.Skipf("no %s: %v", p, err)
		}
		if err := os.Symlink(src, filepath.Join(dir, p)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := exec.LookPath(filepath.Join(dir, out)); err == nil {
		t.Fatalf("%s is still on the path", out)
	}
	return dir
}

// waitFor polls cond for up to acptest.Timeout.
func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(acptest.Timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// groupOf returns the process group of a live process whose command line
// holds s, or 0.
func groupOf(s string) int {
	for _, p := range procs() {
		if strings.Contains(p.cmdline, s) {
			return p.pgid
		}
	}
	return 0
}

// groupMembers returns the pids of the live processes of group pgid.
func groupMembers(pgid int) []int {
	var pids []int
	for _, p := range procs() {
		if p.pgid == pgid {
			pids = append(pids, p.pid)
		}
	}
	return pids
}

// proc is a process found in /proc.
type proc struct {
	pid, ppid, pgid int
	cmdline         string
}

// procs lists the live processes; zombies (which a container's init may
// never reap) are left out.
func procs() []proc {
	ents, _ := os.ReadDir("/proc")
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		i := strings.LastIndexByte(string(stat), ')') // comm may hold spaces and parentheses
		if err != nil || i < 0 {
			continue
		}
		f := strings.Fields(string(stat)[i+1:]) // state ppid pgrp ...
		if len(f) < 3 || f[0] == "Z" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		out = append(out, proc{pid: pid, ppid: ppid, pgid: pgid, cmdline: strings.ReplaceAll(string(cmdline), "\x00", " ")})
	}
	return out
}
