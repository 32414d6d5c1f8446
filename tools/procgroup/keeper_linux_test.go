package procgroup

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// daemonEnv makes the test binary play a companion whose command leaves
// a daemon in a session of its own that touches the named file once a
// gate file (the marker's name plus ".gate") exists; it prints the
// daemon's pid once its keeper knows of it.
const daemonEnv = "PROCGROUP_TEST_DAEMON"

// testKeepers are the keepers under test, by the guard kind they go with.
func testKeepers() map[string][]string {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	k := map[string][]string{"self": {exe, GuardCommand, adoptedArg}}
	if bash, err := exec.LookPath("bash"); err == nil {
		k["bash"] = []string{bash, "-c", shellKeeper, "companion-keeper"}
	}
	return k
}

// playDaemonParent runs `setsid -f sh -c 'wait for the gate; touch marker'` as a
// guarded command under a keeper of the given kind, waits for the
// command to end and for the keeper to be told of the daemon (five
// seconds at most), prints the
// daemon's pid and waits forever.
func playDaemonParent(marker, kind string) int {
	k := newKeeper(testKeepers()[kind])
	if k == nil {
		return 1
	}
	cmd := exec.Command("setsid", "-f", "sh", "-c", "while [ ! -e "+marker+".gate ]; do sleep 0.01; done; touch "+marker)
	if err := start(cmd, testGuards()[kind]); err != nil {
		return 1
	}
	k.watch(cmd.Process.Pid)
	if cmd.Wait() != nil {
		return 1
	}
	deadline := time.Now().Add(5 * time.Second) // then the test fails on its own
	for {
		if pid := findCmdline(marker); pid > 0 && (k.known(pid) || time.Now().After(deadline)) {
			fmt.Println(pid)
			select {}
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestKeeperKillsDaemonWhenParentDies: a daemon a command leaves in a new
// session (setsid), outside every guarded group, dies when its companion
// is killed with SIGKILL, under each keeper, and never does its work.
func TestKeeperKillsDaemonWhenParentDies(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	for kind := range testKeepers() {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			marker := filepath.Join(t.TempDir(), "MARKER")
			parent := exec.Command(os.Args[0])
			parent.Env = append(os.Environ(), daemonEnv+"="+marker, guardEnv+"="+kind)
			out, err := parent.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := parent.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			daemon, convErr := strconv.Atoi(strings.TrimSpace(line))
			if err != nil || convErr != nil {
				parent.Process.Kill()
				t.Fatalf("parent printed %q: %v", line, err)
			}
			if st, _ := readStat(daemon); st.ppid != parent.Process.Pid {
				t.Errorf("daemon's parent is %d, want the subreaper %d", st.ppid, parent.Process.Pid)
			}
			parent.Process.Kill()
			_ = parent.Wait()
			deadline := time.Now().Add(time.Second)
			for running(daemon) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if running(daemon) {
				t.Errorf("daemon %d outlived its parent by a second", daemon)
			}
			if err := os.WriteFile(marker+".gate", nil, 0o600); err != nil {
				t.Fatal(err)
			}
			time.Sleep(500 * time.Millisecond) // a surviving daemon would touch the marker by now
			if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the daemon ran to its end after its parent died (marker: %v)", err)
			}
		})
	}
}

// TestKeeperReapsAdoptees: an adopted daemon that ends while companion
// runs is reaped, not left a zombie (nothing else waits for it).
func TestKeeperReapsAdoptees(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	k := defaultKeeper()
	if k == nil {
		t.Skip("no keeper here")
	}
	gate := filepath.Join(t.TempDir(), "gate")
	cmd := exec.Command("setsid", "-f", "sh", "-c", "while [ ! -e "+gate+" ]; do sleep 0.01; done")
	if err := Start(cmd); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	var daemon int
	waitUntil(t, func() bool { daemon = findCmdline(gate); return daemon > 0 && k.known(daemon) }, "the keeper to know the daemon")
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { _, err := os.Stat("/proc/" + strconv.Itoa(daemon)); return err != nil }, "the daemon to be reaped")
}

// TestParseStat reads the fields after comm, which may hold ") ".
func TestParseStat(t *testing.T) {
	tail := " 0 0 0 0 0 0 0 0 0 0 0 0 0 987654 5 6"
	for _, tc := range []struct {
		line string
		want procStat
		ok   bool
	}{
		{"42 (sh) S 7 42 40 0 -1" + tail, procStat{state: 'S', ppid: 7, pgid: 42, sid: 40, start: 987654}, true},
		{"42 (a) S 1 2 3 (b) Z 9 10 11 0 -1" + tail, procStat{state: 'Z', ppid: 9, pgid: 10, sid: 11, start: 987654}, true},
		{"42 (sh) S 7 42", procStat{}, false},
		{"garbage", procStat{}, false},
	} {
		got, ok := parseStat(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseStat(%q) = %+v, %v; want %+v, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// findCmdline returns the pid of a live process whose command line holds
// s, or 0.
func findCmdline(s string) int {
	for _, pid := range members(0) {
		b, _ := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if strings.Contains(string(b), s) && pid != os.Getpid() {
			return pid
		}
	}
	return 0
}

// running reports whether pid is a live process (not a zombie).
func running(pid int) bool {
	st, ok := readStat(pid)
	return ok && st.state != 'Z'
}

// waitUntil polls cond for up to ten seconds.
func waitUntil(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
