package e2e

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// protectRows are the adversarial rows for the paths the sandbox keeps
// whatever a command does to the folders above them (issue 26): a
// repository's .git replaced through a rename, .git and .companion
// created where they did not exist, and companion's own environment read
// through /proc. A planted git config is proven by the host's git
// running its fsmonitor command, as the user's or the editor's would.
func protectRows() []escape {
	return []escape{
		{name: "renamed .git replaced by a planted one", needs: "git", cmd: func(fx *sbxFixture) string {
			return "mv .git .git-old && mkdir .git && cp -r .git-old/. .git/ && " + plantMonitor(fx, "renamed") + " >> .git/config"
		}, happened: func(fx *sbxFixture) bool { return hostGitRuns(fx, "renamed") }, want: unsandboxed},
		{name: "renamed .companion replaced", cmd: func(*sbxFixture) string {
			return "mv .companion .companion-old && mkdir .companion && cp -r .companion-old/. .companion/ && touch .companion/planted.json"
		}, happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, ".companion", "planted.json")) }, want: unsandboxed},
		// The command prints what it finds; the editor sees the output.
		// The pattern does not spell a secret, so the command line shown
		// with it holds none. Root's commands read it without the
		// sandbox (companion is not dumpable; root may trace it anyway).
		{name: "companion's environment through /proc", cmd: func(*sbxFixture) string {
			return `cat /proc/[0-9]*/environ 2>/dev/null | tr '\0' '\n' | grep -a -o 'mark-[a-z]*-47[1]1' | sort -u`
		}, happened: func(fx *sbxFixture) bool {
			for _, m := range secretMarks {
				if _, v, _ := strings.Cut(m, "="); strings.Contains(fx.out, v) {
					return true
				}
			}
			return false
		}, want: func(_, mode string) bool { return mode == "off" && os.Geteuid() == 0 }},
		{name: "write inside a folder of a fresh workspace", fresh: true, cmd: func(*sbxFixture) string { return "touch src/inside" },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, "src", "inside")) }, want: writable},
		// Nothing is created at the top level of a folder without .git:
		// the backends cannot refuse .git alone there (docs/sandbox.md).
		{name: "write at a fresh workspace's top level", fresh: true, cmd: func(*sbxFixture) string { return "touch top" },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, "top")) }, want: unsandboxed},
		{name: ".companion created", fresh: true, cmd: func(*sbxFixture) string {
			return "mkdir -p .companion && echo '{}' > .companion/settings.json"
		}, happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, ".companion", "settings.json")) }, want: unsandboxed},
		{name: "git init plants a config", fresh: true, needs: "git", cmd: func(fx *sbxFixture) string {
			return "git init -q . && " + plantMonitor(fx, "init") + " >> .git/config"
		}, happened: func(fx *sbxFixture) bool { return hostGitRuns(fx, "init") }, want: unsandboxed},
	}
}

// plantMonitor is a command printing a git config section whose
// fsmonitor creates the marker named name.
func plantMonitor(fx *sbxFixture, name string) string {
	return fmt.Sprintf(`printf '[core]\n\tfsmonitor = touch %s\n'`, monitorMark(fx, name))
}

func monitorMark(fx *sbxFixture, name string) string {
	return filepath.Join(fx.base, "fsmonitor-ran-"+name)
}

// hostGitRuns runs git status in the workspace outside any sandbox, with
// no user or system configuration, and reports whether it ran the
// fsmonitor command named name.
func hostGitRuns(fx *sbxFixture, name string) bool {
	cmd := exec.Command("git", "status")
	cmd.Dir = fx.ws
	cmd.Env = []string{"HOME=" + fx.home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CEILING_DIRECTORIES=" + fx.base}
	_ = cmd.Run()
	return exists(monitorMark(fx, name))
}

// TestSecretsSandboxOff: companion makes itself non-dumpable at start, so
// with the sandbox off an ordinary user's command cannot read its keys
// through /proc (root's can: docs/sandbox.md). Run as nobody's uid when
// the test runs as root, as CI does.
func TestSecretsSandboxOff(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc and PR_SET_DUMPABLE are Linux's")
	}
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
