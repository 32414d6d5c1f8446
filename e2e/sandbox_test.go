package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/acptest"
	"companion/tools/sandbox"

	"companion/internal/testkit/testio"
)

// sandboxBackends are the backends the sandbox tests run under, each
// forced through sandbox.BackendEnv.
var sandboxBackends = []string{"bwrap", "landlock"}

// needBackend skips the test where backend cannot run: bubblewrap without
// user namespaces, a kernel without Landlock (asked of the real binary's
// helper).
func needBackend(t *testing.T, backend string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the bwrap and Landlock backends are Linux only")
	}
	switch backend {
	case "bwrap":
		if out, err := exec.Command("bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "true").CombinedOutput(); err != nil {
			t.Skipf("bubblewrap cannot create namespaces here (%v %s): install bubblewrap and allow user namespaces", err, out)
		}
	case "landlock":
		if out, err := exec.Command(companionBin(t), sandbox.HelperCommand, "read-only", "net=off", "--", "true").CombinedOutput(); err != nil {
			t.Skipf("the kernel lacks what the Landlock backend needs (%v): %s", err, out)
		}
	}
}

// sandboxBase is a fresh directory for the sandbox tests outside /tmp,
// which a sandboxed command sees as a private tmpfs (bwrap) or may not
// write (Landlock): a write there would prove nothing.
func sandboxBase(t *testing.T) string {
	t.Helper()
	for _, parent := range []string{"/var/tmp", os.Getenv("HOME")} {
		if parent == "" {
			continue
		}
		dir, err := os.MkdirTemp(parent, "companion-sandbox-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		if dir, err = filepath.EvalSymlinks(dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	t.Skip("no writable directory outside /tmp for the sandbox tests")
	return ""
}

// sbxFixture is the world one run of the escape table acts on.
type sbxFixture struct {
	base, ws, outside, home string
	// fresh is a workspace with neither .git nor .companion (the rows
	// marked fresh run in it); else ws is a repository holding both.
	fresh bool
	// out is the command's result as the editor saw it, for the rows
	// whose side effect is what the command printed.
	out string
	// hostTmp is a file name in the machine's /tmp a command must not
	// create.
	hostTmp        string
	tcp, curl, raw *testio.Listener
}

// secretMarks are credentials in companion's environment that a command's
// environment must not hold.
var secretMarks = []string{"GEMINI_API_KEY=mark-gemini-4711", "GITHUB_TOKEN=mark-token-4711", "DB_PASSWORD=mark-password-4711"}

// keyText is the private key in the fixture's home.
const keyText = "-----BEGIN OPENSSH PRIVATE KEY----- mark-key-4711\n"

func newSbxFixture(t *testing.T, fresh bool) *sbxFixture {
	t.Helper()
	base := sandboxBase(t)
	fx := &sbxFixture{base: base, ws: filepath.Join(base, "ws"), outside: filepath.Join(base, "outside"), fresh: fresh,
		home: filepath.Join(base, "home"), hostTmp: "/tmp/" + filepath.Base(base) + "-host",
		tcp: testio.Listen(t, false), curl: testio.Listen(t, false), raw: testio.Listen(t, false)}
	t.Cleanup(func() { os.Remove(fx.hostTmp) })
	dirs := []string{"src", "../outside", "../home/.ssh"}
	files := map[string]string{filepath.Join(fx.home, ".ssh", "id_rsa"): keyText}
	if !fresh {
		// A repository git status takes (HEAD, objects, refs), so that a
		// planted config is one the host's git would run.
		dirs = append(dirs, ".git/hooks", ".git/objects", ".git/refs", ".companion")
		files[filepath.Join(fx.ws, ".git", "config")] = "[core]\n"
		files[filepath.Join(fx.ws, ".git", "HEAD")] = "ref: refs/heads/main\n"
	}
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(fx.ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(fx.outside, filepath.Join(fx.ws, "link")); err != nil {
		t.Fatal(err)
	}
	return fx
}

// escape is one row of the table: a command line, and the side effect
// that shows whether it got through.
type escape struct {
	name string
	cmd  func(fx *sbxFixture) string
	// happened reports the side effect.
	happened func(fx *sbxFixture) bool
	// want is whether it should happen under backend in mode ("off" is
	// the control run without the sandbox).
	want func(backend, mode string) bool
	// needs is a program the row needs, or "".
	needs string
	// fresh rows run in a workspace without .git and .companion, the
	// others in a repository.
	fresh bool
}

func never(string, string) bool { return false }

// unsandboxed: only the control run, without the sandbox, gets through.
func unsandboxed(_, mode string) bool { return mode == "off" }

// writable: the workspace-write mode and the control run get through.
func writable(_, mode string) bool { return mode != "read-only" }

func fileIs(path, text string) bool {
	b, err := os.ReadFile(path)
	return err == nil && string(b) == text
}

// escapes is the adversarial table. The last row fails, so the command
// fails and its result carries the sandbox note.
func escapes() []escape {
	touch := func(name, rel string, in func(*sbxFixture) string) escape {
		return escape{name: name, cmd: func(fx *sbxFixture) string { return "touch " + rel },
			happened: func(fx *sbxFixture) bool { return exists(in(fx)) }, want: unsandboxed}
	}
	rows := []escape{
		{name: "write inside a workspace folder", cmd: func(*sbxFixture) string { return "touch src/inside" },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, "src", "inside")) }, want: writable},
		// Landlock cannot create at the top level of a root holding .git
		// (sandbox.LandlockLimits); bubblewrap can.
		{name: "write at the workspace's top level", cmd: func(*sbxFixture) string { return "touch top" },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, "top")) },
			want:     func(b, mode string) bool { return mode == "off" || (mode == "workspace-write" && b == "bwrap") }},
		{name: "absolute path outside", cmd: func(fx *sbxFixture) string { return "touch " + filepath.Join(fx.outside, "abs") },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.outside, "abs")) }, want: unsandboxed},
		touch("symlink in the root pointing out", "link/via-symlink", func(fx *sbxFixture) string { return filepath.Join(fx.outside, "via-symlink") }),
		{name: "/proc/self/root", cmd: func(fx *sbxFixture) string { return "touch /proc/self/root" + filepath.Join(fx.outside, "proc") },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.outside, "proc")) }, want: unsandboxed},
		touch(".git/hooks", ".git/hooks/pre-commit", func(fx *sbxFixture) string { return filepath.Join(fx.ws, ".git", "hooks", "pre-commit") }),
		{name: ".git/config", cmd: func(*sbxFixture) string { return "printf '[core]\\nhooksPath = x\\n' >> .git/config" },
			happened: func(fx *sbxFixture) bool { return !fileIs(filepath.Join(fx.ws, ".git", "config"), "[core]\n") }, want: unsandboxed},
		touch(".companion", ".companion/settings.json", func(fx *sbxFixture) string { return filepath.Join(fx.ws, ".companion", "settings.json") }),
		{name: "the machine's /tmp", cmd: func(fx *sbxFixture) string { return "touch " + fx.hostTmp },
			happened: func(fx *sbxFixture) bool { return exists(fx.hostTmp) }, want: unsandboxed},
		{name: "the private temporary folder", cmd: func(fx *sbxFixture) string {
			t := `"${TMPDIR:-/tmp}/` + filepath.Base(fx.base) + `-t"`
			return "echo t > " + t + " && cp " + t + " src/from-tmp && rm " + t
		}, happened: func(fx *sbxFixture) bool { return fileIs(filepath.Join(fx.ws, "src", "from-tmp"), "t\n") }, want: writable},
		{name: "TCP through bash's /dev/tcp", cmd: func(fx *sbxFixture) string {
			return fmt.Sprintf("(exec 3<>/dev/tcp/127.0.0.1/%d)", fx.tcp.Port)
		}, happened: func(fx *sbxFixture) bool { return fx.tcp.Accepted() > 0 }, want: unsandboxed},
		{name: "curl", needs: "curl", cmd: func(fx *sbxFixture) string {
			return fmt.Sprintf("curl -s -m 5 -o /dev/null http://127.0.0.1:%d/", fx.curl.Port)
		}, happened: func(fx *sbxFixture) bool { return fx.curl.Accepted() > 0 }, want: unsandboxed},
		// A raw socket, then a connection to the server as the proof that
		// it was made (raw sockets need root even without a sandbox).
		{name: "python3 raw socket", needs: "python3", cmd: func(fx *sbxFixture) string {
			return fmt.Sprintf(`python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_TCP); socket.create_connection(('127.0.0.1', %d)).close()"`, fx.raw.Port)
		}, happened: func(fx *sbxFixture) bool { return fx.raw.Accepted() > 0 },
			want: func(_, mode string) bool { return mode == "off" && os.Geteuid() == 0 }},
		{name: "read ~/.ssh/id_rsa", cmd: func(*sbxFixture) string { return "cp ~/.ssh/id_rsa src/key-copy" },
			happened: func(fx *sbxFixture) bool { return fileIs(filepath.Join(fx.ws, "src", "key-copy"), keyText) }, want: writable},
		{name: "write ~/.ssh", cmd: func(*sbxFixture) string { return "echo x >> ~/.ssh/id_rsa; touch ~/.ssh/authorized_keys" },
			happened: func(fx *sbxFixture) bool {
				return !fileIs(filepath.Join(fx.home, ".ssh", "id_rsa"), keyText) || exists(filepath.Join(fx.home, ".ssh", "authorized_keys"))
			}, want: unsandboxed},
		// The environment dump itself is the side effect: it must be
		// written (where writes are allowed) and hold no credential.
		{name: "env without credentials", cmd: func(*sbxFixture) string { return "env > src/env.txt" },
			happened: func(fx *sbxFixture) bool {
				b, err := os.ReadFile(filepath.Join(fx.ws, "src", "env.txt"))
				for _, m := range secretMarks {
					if _, v, _ := strings.Cut(m, "="); err == nil && bytes.Contains(b, []byte(v)) {
						return true
					}
				}
				return false
			}, want: never},
	}
	rows = append(rows, protectRows()...)
	// The last row fails wherever it runs.
	return append(rows, touch("..", "../dotdot", func(fx *sbxFixture) string { return filepath.Join(fx.base, "dotdot") }),
		escape{name: ".. (fresh workspace)", fresh: true, cmd: func(*sbxFixture) string { return "touch ../dotdot" },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.base, "dotdot")) }, want: unsandboxed})
}

// runEscapes runs the table's command line through the real binary in
// mode under backend ("" when mode is off) and returns the tool result's
// updates and initialize's answer.
func runEscapes(t *testing.T, fx *sbxFixture, rows []escape, backend, mode string) (string, json.RawMessage) {
	t.Helper()
	var cmds []string
	for _, r := range rows {
		cmds = append(cmds, r.cmd(fx))
	}
	sc := script(t, `{"turns":[{"chunks":[`+shellCall(strings.Join(cmds, "; "))+`]},{"chunks":[{"text":"done"}]}]}`)
	fake := acptest.NewFake()
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
	e := env(t, append([]string{"HOME=" + fx.home, sandbox.BackendEnv + "=" + backend}, secretMarks...)...)
	ed := acptest.Start(t, companionBin(t), []string{"acp", "--sandbox", mode, "--script", sc}, e, fake.Handle)
	// The editor offers terminals when the sandbox is on: a sandboxed
	// command still runs here. The control run must run here too.
	init := ed.Initialize(map[string]any{"terminal": mode != "off"})
	id := ed.NewSession(fx.ws)
	if r := ed.StopReason(ed.Wait(ed.Prompt(id, "go"))); r != "end_turn" {
		t.Fatalf("stopReason = %q", r)
	}
	return toolUpdates(ed, id), init.Result
}

// TestSandbox runs the adversarial table through the real binary under
// each backend in each sandboxed mode, and once without the sandbox as the
// control that every attempt would work there. Every row is checked by its
// side effect: a file made or changed, a connection accepted.
func TestSandbox(t *testing.T) {
	t.Parallel()
	for _, fresh := range []bool{false, true} {
		testSandbox(t, fresh)
	}
}

// testSandbox runs the rows for a repository or for a fresh workspace.
func testSandbox(t *testing.T, fresh bool) {
	ws := "repo"
	if fresh {
		ws = "fresh"
	}
	t.Run("control-off/"+ws, func(t *testing.T) {
		fx := newSbxFixture(t, fresh)
		rows := usableRows(t, escapes(), fresh)
		fx.out, _ = runEscapes(t, fx, rows, "", "off")
		checkRows(t, fx, rows, "", "off")
	})
	for _, backend := range sandboxBackends {
		for _, mode := range []string{"workspace-write", "read-only"} {
			t.Run(backend+"/"+mode+"/"+ws, func(t *testing.T) {
				needBackend(t, backend)
				fx := newSbxFixture(t, fresh)
				rows := usableRows(t, escapes(), fresh)
				text, init := runEscapes(t, fx, rows, backend, mode)
				fx.out = text
				checkRows(t, fx, rows, backend, mode)
				checkMeta(t, init, backend, mode)
				if want := "ran in the " + mode + " sandbox"; !strings.Contains(text, want) {
					t.Errorf("result lacks the sandbox note %q:\n%s", want, text)
				}
				if backend == "landlock" && !strings.Contains(text, "Under Landlock") {
					t.Errorf("result lacks what Landlock cannot do:\n%s", text)
				}
			})
		}
	}
}

// usableRows keeps the rows for a fresh workspace or a repository and
// drops those whose program is not installed, saying so.
func usableRows(t *testing.T, rows []escape, fresh bool) []escape {
	var out []escape
	for _, r := range rows {
		if r.fresh != fresh {
			continue
		}
		if _, err := exec.LookPath(r.needs); r.needs != "" && err != nil {
			t.Logf("row %q skipped: no %s", r.name, r.needs)
			continue
		}
		out = append(out, r)
	}
	return out
}

func checkRows(t *testing.T, fx *sbxFixture, rows []escape, backend, mode string) {
	t.Helper()
	for _, r := range rows {
		if got, want := r.happened(fx), r.want(backend, mode); got != want {
			t.Errorf("%s: got through %v, want %v", r.name, got, want)
		}
	}
	if mode == "workspace-write" && !fx.fresh && !exists(filepath.Join(fx.ws, "src", "env.txt")) {
		t.Error("the environment dump was not written: its row proves nothing")
	}
}

// checkMeta reads initialize's _meta.companion.sandbox.
func checkMeta(t *testing.T, init json.RawMessage, backend, mode string) {
	t.Helper()
	var r struct {
		AgentCapabilities struct {
			Meta struct {
				Companion struct {
					Sandbox struct{ Mode, Engine, Why string }
				}
			} `json:"_meta"`
		}
	}
	if err := json.Unmarshal(init, &r); err != nil {
		t.Fatal(err)
	}
	if sb := r.AgentCapabilities.Meta.Companion.Sandbox; sb.Mode != mode || sb.Engine != backend || sb.Why == "" {
		t.Errorf("initialize _meta.companion.sandbox = %+v, want mode %s, engine %s and why", sb, mode, backend)
	}
}

// TestSandboxForkBomb starts a fork bomb (bounded by depth, as tests may
// run as root where RLIMIT_NPROC does not bind) whose processes also try
// to leave the command's process group (setsid, double fork), cancels the
// turn, and checks that every process of it is gone.
func TestSandboxForkBomb(t *testing.T) {
	for _, backend := range sandboxBackends {
		t.Run(backend, func(t *testing.T) {
			needBackend(t, backend)
			ws := filepath.Join(sandboxBase(t), "ws")
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			mark := fmt.Sprintf("300.%d%d", os.Getpid()%10000, len(backend))
			bomb := `b(){ if [ ${#1} -lt 6 ]; then b "x$1" & b "x$1" & fi; (sleep ` + mark + ` &); setsid sleep ` + mark +
				` 2>/dev/null & sleep ` + mark + `; }; b ""`
			sc := script(t, `{"turns":[{"chunks":[`+shellCall(bomb)+`]},{"chunks":[{"text":"done"}]}]}`)
			fake := acptest.NewFake()
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
			ed := acptest.Start(t, companionBin(t), []string{"acp", "--sandbox", "workspace-write", "--script", sc},
				env(t, sandbox.BackendEnv+"="+backend), fake.Handle)
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			done := ed.Prompt(id, "go")
			t.Cleanup(func() { killMarked(mark) })
			waitFor(t, func() bool { return len(marked(mark)) >= 100 }, "the bomb to grow")
			ed.Notify("session/cancel", map[string]any{"sessionId": id})
			if r := ed.StopReason(ed.Wait(done)); r != "cancelled" {
				t.Errorf("stopReason = %q, want cancelled", r)
			}
			deadline := time.Now().Add(5 * time.Second)
			for len(marked(mark)) > 0 && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			if left := marked(mark); len(left) > 0 {
				t.Errorf("%d processes of the fork bomb outlived its cancelled command by 5 s", len(left))
			}
		})
	}
}

// marked returns the live processes whose command line holds mark.
func marked(mark string) []proc {
	var out []proc
	for _, p := range procs() {
		if strings.Contains(p.cmdline, mark) {
			out = append(out, p)
		}
	}
	return out
}

// killMarked kills what a failed test left.
func killMarked(mark string) {
	for _, p := range marked(mark) {
		if pr, err := os.FindProcess(p.pid); err == nil {
			_ = pr.Kill()
		}
	}
}

// TestSandboxKilledWithAgent kills companion while a sandboxed command
// runs, under each backend: the command's group (bwrap or the command the
// Landlock helper became, and everything it started) is gone and its last
// step never happens.
func TestSandboxKilledWithAgent(t *testing.T) {
	t.Parallel()
	for _, backend := range sandboxBackends {
		t.Run(backend, func(t *testing.T) {
			needBackend(t, backend)
			// The marks go into a folder: a workspace without .git has a
			// read-only top level under both backends.
			ws := filepath.Join(sandboxBase(t), "ws")
			if err := os.MkdirAll(filepath.Join(ws, "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			started, marker := filepath.Join(ws, "src", "STARTED"), filepath.Join(ws, "src", "MARKER")
			sleep := fmt.Sprintf("sleep 2.%d", len(backend))
			sc := script(t, `{"turns":[{"chunks":[`+shellCall("touch src/STARTED; "+sleep+"; touch src/MARKER")+`]},{"chunks":[{"text":"ok"}]}]}`)
			cmd := exec.Command(companionBin(t), "run", "--sandbox", "workspace-write", "--approval-mode", "yolo", "--script", sc, "-p", "go")
			cmd.Dir, cmd.Env = ws, env(t, sandbox.BackendEnv+"="+backend)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, func() bool { return exists(started) }, "the command to start")
			pgid := groupOf(sleep)
			if pgid == 0 {
				t.Fatal("no process of the command found")
			}
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			deadline := time.Now().Add(time.Second)
			left := func() bool { return len(groupMembers(pgid)) > 0 || groupOf("touch src/MARKER") != 0 }
			for left() && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if m := groupMembers(pgid); left() {
				t.Errorf("processes of the sandboxed command (group %v) outlived companion by a second", m)
			}
			time.Sleep(2500 * time.Millisecond)
			if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the sandboxed command ran to its end after companion died (marker: %v)", err)
			}
		})
	}
}

// TestSandboxWithoutBwrap: with no bubblewrap on PATH, the sandbox falls
// back to Landlock (and says so in initialize), and a command runs
// confined; with bwrap forced, commands are refused, saying why, and
// nothing runs unsandboxed.
func TestSandboxWithoutBwrap(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		force, engine string
		ran           bool
	}{{"", "landlock", true}, {"bwrap", "none", false}} {
		t.Run("force="+tc.force, func(t *testing.T) {
			if tc.ran {
				needBackend(t, "landlock")
			}
			base := sandboxBase(t)
			ws := filepath.Join(base, "ws")
			if err := os.MkdirAll(filepath.Join(ws, "src"), 0o755); err != nil {
				t.Fatal(err)
			}
			sc := script(t, `{"turns":[{"chunks":[`+shellCall("touch src/inside; touch ../outside")+`]},{"chunks":[{"text":"done"}]}]}`)
			fake := acptest.NewFake()
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
			e := env(t, "PATH="+pathWithout(t, "bwrap", "bash", "sh", "touch"), sandbox.BackendEnv+"="+tc.force)
			ed := acptest.Start(t, companionBin(t), []string{"acp", "--sandbox", "workspace-write", "--script", sc}, e, fake.Handle)
			init := ed.Initialize(map[string]any{})
			if want := `"engine":"` + tc.engine + `"`; !strings.Contains(string(init.Result), want) {
				t.Errorf("initialize = %s, want %s", init.Result, want)
			}
			id := ed.NewSession(ws)
			ed.Wait(ed.Prompt(id, "go"))
			if got := exists(filepath.Join(ws, "src", "inside")); got != tc.ran {
				t.Errorf("command ran: %v, want %v", got, tc.ran)
			}
			if exists(filepath.Join(base, "outside")) {
				t.Error("the command wrote outside the workspace")
			}
			if !tc.ran {
				var text string
				for _, u := range ed.Updates(id) {
					text += string(u.Raw)
				}
				if want := "bubblewrap (bwrap) is not installed"; !strings.Contains(text, want) {
					t.Errorf("updates lack %q:\n%s", want, text)
				}
			}
		})
	}
}
