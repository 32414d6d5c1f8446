package e2e

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"companion/internal/acptest"
)

// sandboxBase is a fresh directory for the sandbox tests outside /tmp,
// which a sandboxed command sees as a private tmpfs: a write there would
// vanish whether or not the sandbox held, and prove nothing.
func sandboxBase(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the sandbox is Linux only")
	}
	if err := exec.Command("bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "true").Run(); err != nil {
		t.Skipf("bubblewrap cannot create namespaces here (%v): install bubblewrap and allow user namespaces", err)
	}
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

// TestSandbox runs one command line of escape attempts through the real
// binary in each sandboxed mode and checks every attempt by its side
// effect: only workspace-write writes the workspace; nothing writes
// outside it, nor .git/hooks; the network is unreachable; reads work.
func TestSandbox(t *testing.T) {
	for _, mode := range []string{"workspace-write", "read-only"} {
		t.Run(mode, func(t *testing.T) {
			base := sandboxBase(t)
			ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
			for _, d := range []string{filepath.Join(ws, ".git", "hooks"), filepath.Join(ws, ".companion"), outside} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(outside, filepath.Join(ws, "link")); err != nil {
				t.Fatal(err)
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			var conns atomic.Int32
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					conns.Add(1)
					c.Close()
				}
			}()
			port := ln.Addr().(*net.TCPAddr).Port
			private := filepath.Base(base) + "-private"
			line := strings.Join([]string{
				"touch inside",
				"touch " + filepath.Join(outside, "abs"),
				"touch link/via-symlink",
				"touch /proc/self/root" + filepath.Join(outside, "proc"),
				"touch .git/hooks/x",
				"touch .companion/x",
				"touch /tmp/" + private + " && echo TMP_$((2+2))",
				fmt.Sprintf("(exec 3<>/dev/tcp/127.0.0.1/%d) && echo NET_$((1+1))", port),
				"echo HOST=$(cat /etc/hostname)",
				"touch ../dotdot", // last: the command fails, and the result says why
			}, "; ")
			sc := script(t, `{"turns":[{"chunks":[`+shellCall(line)+`]},{"chunks":[{"text":"done"}]}]}`)
			fake := acptest.NewFake()
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
			ed := acptest.Start(t, binary, []string{"acp", "--sandbox", mode, "--script", sc}, env(t), fake.Handle)
			// The editor offers terminals: a sandboxed command still runs here.
			init := ed.Initialize(map[string]any{"terminal": true})
			if want := `"sandbox":{"engine":"bwrap","mode":"` + mode + `"}`; !strings.Contains(string(init.Result), want) {
				t.Errorf("initialize = %s, want _meta.companion holding %s", init.Result, want)
			}
			id := ed.NewSession(ws)
			if r := ed.StopReason(ed.Wait(ed.Prompt(id, "go"))); r != "end_turn" {
				t.Fatalf("stopReason = %q", r)
			}
			var text string
			for _, u := range ed.Updates(id) {
				if u.Kind == "tool_call_update" {
					text += string(u.Raw)
				}
			}

			if got, want := exists(filepath.Join(ws, "inside")), mode == "workspace-write"; got != want {
				t.Errorf("write inside the workspace: created %v, want %v", got, want)
			}
			for _, p := range []string{filepath.Join(outside, "abs"), filepath.Join(base, "dotdot"), filepath.Join(outside, "via-symlink"),
				filepath.Join(outside, "proc"), filepath.Join(ws, ".git", "hooks", "x"), filepath.Join(ws, ".companion", "x"), "/tmp/" + private} {
				if exists(p) {
					t.Errorf("the sandboxed command created %s", p)
				}
			}
			if n := conns.Load(); n != 0 || strings.Contains(text, "NET_2") {
				t.Errorf("the sandboxed command reached 127.0.0.1:%d (%d connections)", port, n)
			}
			host, _ := os.ReadFile("/etc/hostname")
			for _, want := range []string{"TMP_4", "HOST=" + strings.TrimSpace(string(host)), "Read-only file system"} {
				if !strings.Contains(text, want) {
					t.Errorf("result lacks %q:\n%s", want, text)
				}
			}
			if want := "ran in the " + mode + " sandbox"; !strings.Contains(text, want) {
				t.Errorf("result lacks the sandbox note %q:\n%s", want, text)
			}
		})
	}
}

// TestSandboxKilledWithAgent kills companion while a sandboxed command
// runs: the command's group (bwrap, its leader, and everything in the
// sandbox) is gone and its last step never happens.
func TestSandboxKilledWithAgent(t *testing.T) {
	base := sandboxBase(t)
	ws := filepath.Join(base, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	started, marker := filepath.Join(ws, "STARTED"), filepath.Join(ws, "MARKER")
	sc := script(t, `{"turns":[{"chunks":[`+shellCall("touch STARTED; sleep 2; touch MARKER")+`]},{"chunks":[{"text":"ok"}]}]}`)
	cmd := exec.Command(binary, "run", "--sandbox", "workspace-write", "--approval-mode", "yolo", "--script", sc, "-p", "go")
	cmd.Dir, cmd.Env = ws, env(t)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return exists(started) }, "the command to start")
	pgid := groupOf("sleep 2")
	if pgid == 0 {
		t.Fatal("no process of the command found")
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	deadline := time.Now().Add(time.Second)
	left := func() bool { return len(groupMembers(pgid)) > 0 || groupOf("touch MARKER") != 0 }
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
}

// TestSandboxRefusedWithoutBwrap: a sandboxed mode with no bubblewrap on
// PATH refuses commands, saying why; nothing runs unsandboxed.
func TestSandboxRefusedWithoutBwrap(t *testing.T) {
	ws := workspace(t, nil)
	sc := script(t, `{"turns":[{"chunks":[`+shellCall("touch inside")+`]},{"chunks":[{"text":"done"}]}]}`)
	fake := acptest.NewFake()
	fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "proceed_once", nil }
	path := "PATH=" + pathWithout(t, "bwrap", "bash", "sh", "touch")
	ed := acptest.Start(t, binary, []string{"acp", "--sandbox", "read-only", "--script", sc}, env(t, path), fake.Handle)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	ed.Wait(ed.Prompt(id, "go"))
	var text string
	for _, u := range ed.Updates(id) {
		text += string(u.Raw)
	}
	if exists(filepath.Join(ws, "inside")) {
		t.Error("the command ran without its sandbox")
	}
	if want := "bubblewrap (bwrap) is not installed"; !strings.Contains(text, want) {
		t.Errorf("updates lack %q:\n%s", want, text)
	}
}
