package e2e

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSecretsSandboxOff: companion makes itself non-dumpable at start, so
// with the sandbox off an ordinary user's command cannot read its keys
// through /proc (root's can: docs/sandbox.md). Run as nobody's uid when
// the test runs as root, as CI does.
func TestSecretsSandboxOff(t *testing.T) {
	t.Parallel()
	base := sandboxBase(t)
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(base, "companion")
	b, err := os.ReadFile(companionBin(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, b, 0o755); err != nil {
		t.Fatal(err)
	}
	waitExecutable(t, exe)
	var attr *syscall.SysProcAttr
	if os.Geteuid() == 0 {
		attr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	agent := exec.Command(exe, "acp")
	agent.Env = append([]string{"HOME=" + base, "PATH=" + os.Getenv("PATH")}, secretMarks...)
	var stderr strings.Builder
	agent.Stderr = &stderr
	agent.SysProcAttr = attr
	stdin, err := agent.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := agent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := agent.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = agent.Wait() })
	// Once companion answers initialize, its start-up is behind it.
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("companion did not answer initialize: %q %v\n%s", line, err, stderr.String())
	}
	environ := fmt.Sprintf("/proc/%d/environ", agent.Process.Pid)
	cat := exec.Command("cat", environ)
	cat.SysProcAttr = attr
	out, _ := cat.CombinedOutput()
	for _, m := range secretMarks {
		if _, v, _ := strings.Cut(m, "="); strings.Contains(string(out), v) {
			t.Errorf("a command of companion's own user read its environment through /proc:\n%s", out)
		}
	}
}

// waitExecutable waits until exe, which this test process has just
// written, can be run. A child forked meanwhile by a parallel test holds
// the file's write descriptor until it execs, and exec fails with ETXTBSY
// ("text file busy", golang/go#22315) until then; no later fork can
// inherit the closed descriptor, so once one run succeeds the file stays
// runnable.
func waitExecutable(t *testing.T, exe string) {
	t.Helper()
	for i := 0; ; i++ {
		err := exec.Command(exe, "--version").Run()
		if err == nil {
			return
		}
		if !errors.Is(err, syscall.ETXTBSY) || i == 40 {
			t.Fatalf("%s --version: %v", exe, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
