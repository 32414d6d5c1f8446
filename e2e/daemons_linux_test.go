package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/acptest"
	"companion/tools/sandbox"
)

// daemonRows are the adversarial rows for what a command leaves running
// when it ends (issue 26, item 4): each starts something, outside the
// command's reach in its own way, that touches S-<name> at once, then
// waits for the gate file (standing for a sleep that outlasts companion)
// and touches M-<name>. %[1]s is S, %[2]s the gate, %[3]s M.
// Landlock's seccomp filter refuses setsid, so under it the setsid row
// never starts (refused is how it holds there); the group leader's job
// starts, but stays in the command's group (setpgid is refused too).
var daemonRows = []struct {
	name, line string
	setsid     bool // needs setsid
}{
	{"setsid", "setsid -f sh -c '" + gated + "'", true},
	{"nohup", "nohup sh -c '" + gated + "' >/dev/null 2>&1 &", false},
	{"double-fork", "( (" + gated + ") >/dev/null 2>&1 & )", false},
	// bash's job control makes the job the leader of a group of its own
	// in companion's session; its parent ends at once, so companion
	// adopts a group leader it did not start.
	{"group-leader", "bash -c 'set -m; (" + gated + ") >/dev/null 2>&1 &'", false},
}

// gated is a daemon's work: S, then M once the gate is there.
const gated = "touch %[1]s; while [ ! -e %[2]s ]; do sleep 0.01; done; touch %[3]s"

// daemonUser is who runs companion in a run of the rows: root's own uid,
// or nobody's (65534) when the test runs as root, as CI does.
type daemonUser struct {
	name string
	uid  int
}

func daemonUsers() []daemonUser {
	us := []daemonUser{{"self", os.Geteuid()}}
	if os.Geteuid() == 0 {
		us = append(us, daemonUser{"nobody", 65534})
	}
	return us
}

// TestDaemonsDieWithAgent runs every daemon row through the real binary,
// with the sandbox off and under each backend, as the test's user and as
// an ordinary one, kills companion (SIGKILL) as soon as the turn ends,
// and checks, once the daemons' sleep is over, that none did its last
// step. Each daemon's first step proves it ran.
func TestDaemonsDieWithAgent(t *testing.T) {
	t.Parallel()
	exe := companionBin(t)
	for _, u := range daemonUsers() {
		for _, backend := range []string{"", "bwrap", "landlock"} {
			name := backend
			if name == "" {
				name = "off"
			}
			t.Run(u.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				testDaemons(t, exe, u, backend)
			})
		}
	}
}

func testDaemons(t *testing.T, exe string, u daemonUser, backend string) {
	base := sandboxBase(t)
	ws := filepath.Join(base, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := func(kind, row string) string { return filepath.Join(ws, "src", kind+"-"+row) }
	gate := file("gate", "all")
	// The command ends once each daemon that can start has (under
	// bubblewrap its end would kill them before they run).
	var lines, waits []string
	starts := func(setsid bool) bool { return !setsid || backend != "landlock" }
	for _, r := range daemonRows {
		lines = append(lines, fmt.Sprintf(r.line, file("S", r.name), gate, file("M", r.name)))
		if starts(r.setsid) {
			waits = append(waits, file("S", r.name))
		}
	}
	lines = append(lines, "for f in "+strings.Join(waits, " ")+"; do while [ ! -e $f ]; do sleep 0.01; done; done")
	sc := filepath.Join(base, "script.json")
	if err := os.WriteFile(sc, []byte(`{"turns":[{"chunks":[`+shellCall(strings.Join(lines, "\n"))+`]},{"chunks":[{"text":"done"}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bin, args := asDaemonUser(t, exe, base, u)
	mode := "workspace-write"
	if backend == "" {
		mode = "off"
	} else if !backendRuns(bin, args, backend) {
		t.Skipf("%s cannot run here as %s", backend, u.name)
	}
	fake := acptest.NewFake()
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
	e := []string{"HOME=" + filepath.Join(base, "home"), "PATH=" + os.Getenv("PATH"), sandbox.BackendEnv + "=" + backend}
	ed := acptest.Start(t, bin, append(args, "acp", "--sandbox", mode, "--script", sc), e, fake.Handle)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	t.Cleanup(func() { killMarked(gate) })
	done := ed.Prompt(id, "go")
	// Killed the moment every daemon has started: some were adopted
	// microseconds before.
	waitFor(t, func() bool {
		for _, w := range waits {
			if !exists(w) {
				return false
			}
		}
		return true
	}, "every daemon to start")
	ed.Kill()
	_ = done
	for _, r := range daemonRows {
		if got := exists(file("S", r.name)); got != starts(r.setsid) {
			t.Errorf("%s: started %v, want %v", r.name, got, starts(r.setsid))
		}
	}
	deadline := time.Now().Add(3 * time.Second)
	for len(marked(gate)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	left := marked(gate)
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		time.Sleep(300 * time.Millisecond) // a daemon left touches its M at once
	}
	for _, r := range daemonRows {
		if exists(file("M", r.name)) {
			t.Errorf("%s: the daemon outlived companion and did its last step", r.name)
		}
	}
	if len(left) > 0 {
		t.Errorf("processes %v outlived companion by 3 s", left)
	}
}

// asDaemonUser returns the program and leading arguments that run
// companion as u: the binary itself, or for another uid setpriv running a
// copy u can read, in a base (with its workspace and home) u owns.
func asDaemonUser(t *testing.T, exe, base string, u daemonUser) (string, []string) {
	t.Helper()
	if u.uid == os.Geteuid() {
		return exe, nil
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("no setpriv to run companion as another user")
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	own := filepath.Join(base, "companion")
	if err := os.WriteFile(own, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(base, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = filepath.Walk(base, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, u.uid, u.uid)
	})
	if err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprint(u.uid)
	return "setpriv", []string{"--reuid=" + id, "--regid=" + id, "--clear-groups", own}
}

// backendRuns reports whether backend can confine a command for the user
// bin and args run companion as (args, when set, end with companion).
func backendRuns(bin string, args []string, backend string) bool {
	self, prefix := bin, []string(nil)
	if len(args) > 0 {
		self, prefix = args[len(args)-1], append([]string{bin}, args[:len(args)-1]...)
	}
	probe := []string{"bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "true"}
	if backend == "landlock" {
		probe = []string{self, sandbox.HelperCommand, "read-only", "net=off", "--", "true"}
	}
	probe = append(prefix, probe...)
	return exec.Command(probe[0], probe[1:]...).Run() == nil
}
