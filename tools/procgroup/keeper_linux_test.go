package procgroup

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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

// daemonLines are the commands that leave a daemon behind, by name: a
// new session (setsid; after a pause, so that it lands between two of the
// loop's scans), and a job that bash's job control made the leader of a
// group of its own in companion's session. %s is the daemon's work.
var daemonLines = map[string]string{
	"setsid": "sleep 0.1; setsid -f bash -c '%s'",
	"leader": "bash -c 'set -m; (%s) >/dev/null 2>&1 &'",
}

// playDaemonParent runs the daemon line named by daemonKindEnv (the daemon
// waits for a gate file, the marker's name plus ".gate", then touches the
// marker) as a guarded command under a keeper of the given kind, prints
// the daemon's pid as soon as it runs (the keeper may not have been told
// of it: it must hold anyway) and waits forever.
func playDaemonParent(marker, kind string) int {
	k := newKeeper(testKeepers()[kind])
	if k == nil {
		return 1
	}
	work := "echo $BASHPID > " + marker + ".pid; while [ ! -e " + marker + ".gate ]; do sleep 0.01; done; touch " + marker
	cmd := exec.Command("sh", "-c", fmt.Sprintf(daemonLines[os.Getenv(daemonKindEnv)], work))
	if err := k.start(cmd, testGuards()[kind]); err != nil {
		return 1
	}
	for {
		if b, err := os.ReadFile(marker + ".pid"); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			fmt.Print(string(b))
			select {}
		}
		time.Sleep(time.Millisecond)
	}
}

// daemonKindEnv names the daemon line playDaemonParent runs.
const daemonKindEnv = "PROCGROUP_TEST_DAEMON_KIND"

// TestKeeperKillsDaemonWhenParentDies: a daemon a command leaves outside
// every guarded group, in a new session or as a group leader in
// companion's, dies when its companion is killed with SIGKILL the moment
// the daemon runs, under each keeper, and never does its work.
func TestKeeperKillsDaemonWhenParentDies(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	for kind := range testKeepers() {
		for daemon := range daemonLines {
			t.Run(kind+"/"+daemon, func(t *testing.T) {
				t.Parallel()
				killDaemonParent(t, kind, daemon)
			})
		}
	}
}

func killDaemonParent(t *testing.T, kind, daemonKind string) {
	marker := filepath.Join(t.TempDir(), "MARKER")
	parent, daemon := startPlayer(t, daemonEnv+"="+marker, guardEnv+"="+kind, daemonKindEnv+"="+daemonKind)
	parent.Process.Kill()
	_ = parent.Wait()
	deadline := time.Now().Add(3 * time.Second)
	for running(daemon) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if running(daemon) {
		t.Errorf("daemon %d outlived its parent by 3 s", daemon)
	}
	if err := os.WriteFile(marker+".gate", nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if running(daemon) {
		time.Sleep(300 * time.Millisecond) // a surviving daemon touches the marker at once
		_ = syscall.Kill(daemon, syscall.SIGKILL)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the daemon ran to its end after its parent died (marker: %v)", err)
	}
}

// TestKeeperReapsAdoptees: an adopted daemon (a new session, or a group
// leader in companion's) that ends while companion runs is known to the
// keeper and reaped, not left a zombie (nothing else waits for it).
func TestKeeperReapsAdoptees(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid")
	}
	k := defaultKeeper()
	if k == nil {
		t.Skip("no keeper here")
	}
	for name, line := range daemonLines {
		gate := filepath.Join(t.TempDir(), "gate")
		cmd := exec.Command("sh", "-c", fmt.Sprintf(line, "while [ ! -e "+gate+" ]; do sleep 0.01; done"))
		if err := Start(cmd); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		var daemon int
		waitUntil(t, func() bool { daemon = findCmdline(gate + " ]; do"); return daemon > 0 && k.known(daemon) }, name+": the keeper to know the daemon")
		if err := os.WriteFile(gate, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		waitUntil(t, func() bool { _, err := os.Stat("/proc/" + strconv.Itoa(daemon)); return err != nil }, name+": the daemon to be reaped")
	}
}

// TestKeeperLeavesAWaitedChild: a child the process started itself in a
// session of its own looks adopted, and its exit status belongs to
// whoever waits for it: a scan that finds it exited leaves it, so the
// waiter gets the status (not ECHILD); one that nobody reaped by the
// next scan is reaped then.
func TestKeeperLeavesAWaitedChild(t *testing.T) {
	self, ok := readStat(os.Getpid())
	if !ok {
		t.Skip("no /proc here")
	}
	k := &keeper{self: self, own: map[int]uint64{}, adopted: map[int]uint64{}}
	exited := func() *exec.Cmd {
		cmd := exec.Command("sh", "-c", "exit 7")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pid := cmd.Process.Pid
		waitUntil(t, func() bool { st, ok := readStat(pid); return ok && st.state == 'Z' }, "the child to exit")
		return cmd
	}

	waited := exited()
	k.scan()
	var ee *exec.ExitError
	if err := waited.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("the waiter got %v, want exit status 7", err)
	}

	left := exited()
	pid := left.Process.Pid
	k.scan()
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err != nil {
		t.Fatalf("reaped at the first scan that saw it exited: %v", err)
	}
	k.scan()
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Errorf("a child nobody waited for is still there after a second scan")
	}
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
