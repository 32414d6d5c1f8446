//go:build unix

package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/tools/sandbox"
)

// TestRunShellSandboxed runs commands under workspace-write: a write in the
// root lands, a failed write outside gets the sandbox note, and a command
// killed for its timeout takes everything inside the sandbox with it (bwrap
// leads the process group companion signals).
func TestRunShellSandboxed(t *testing.T) {
	sb := sandbox.New(sandbox.WorkspaceWrite, false)
	if err := sb.Available(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	env := shellEnv(t)
	root := env.Roots.Primary()
	opts := ShellOptions{Sandbox: sb, FlushInterval: 10 * time.Millisecond, KillGrace: 200 * time.Millisecond}
	// Outside /tmp, which the sandbox replaces with a private one.
	outside := filepath.Join("/var/tmp", filepath.Base(root)+"-outside")
	t.Cleanup(func() { _ = os.Remove(outside) })
	// In a folder of the root: the top level of a root without .git is
	// read-only in the sandbox.
	if err := os.Mkdir(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, _ := runShell(t, env, opts, map[string]any{"command": "touch src/inside && touch " + outside})
	if _, err := os.Stat(filepath.Join(root, "src", "inside")); err != nil {
		t.Errorf("write in the root: %v", err)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Error("write outside the root landed")
	}
	if !strings.Contains(res.Text, "ran in the workspace-write sandbox") {
		t.Errorf("result lacks the sandbox note:\n%s", res.Text)
	}

	// A repository without .git/hooks: the sandbox creates it read-only
	// rather than let the command plant a hook.
	if err := os.MkdirAll(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	runShell(t, env, opts, map[string]any{"command": "mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit"})
	if _, err := os.Stat(filepath.Join(root, ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the sandboxed command planted a git hook")
	}

	opts.Timeout = 300 * time.Millisecond
	res, _ = runShell(t, env, opts, map[string]any{"command": "sleep 1 & wait; touch src/marker"})
	if !res.IsError || !strings.Contains(res.Text, "ran longer than") {
		t.Errorf("result = %q, want a timeout", res.Text)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(root, "src", "marker")); err == nil {
		t.Error("the sandboxed command outlived its timeout")
	}
}

// TestRunShellSandboxedBackground: a background command runs in the
// read-only sandbox too, sees its root (under /tmp here, which the sandbox
// replaces) and cannot write it.
func TestRunShellSandboxedBackground(t *testing.T) {
	sb := sandbox.New(sandbox.ReadOnly, false)
	if err := sb.Available(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	env := shellEnv(t)
	root := env.Roots.Primary()
	opts := ShellOptions{Sandbox: sb, KillGrace: 200 * time.Millisecond}
	res, _ := runShell(t, env, opts, map[string]any{"command": "touch " + filepath.Join(root, "ro") + "; sleep 1", "is_background": true})
	if !strings.Contains(res.Text, "Started background process") {
		t.Fatalf("result = %q", res.Text)
	}
	log := res.Raw.(ShellRaw).OutputFile
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(log); strings.Contains(string(b), "Read-only file system") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the background command never reported its refused write")
		}
	}
	if err := env.Background.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "ro")); err == nil {
		t.Error("a read-only background command wrote the root")
	}
}
