//go:build unix

package builtin

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/tools/sandbox"
)

// TestRunShellOutsideSandbox: a failed sandboxed write tells the model
// about outside_sandbox; a call with outside_sandbox runs nothing until
// the user's approval is recorded, and then runs without the sandbox.
func TestRunShellOutsideSandbox(t *testing.T) {
	sb := sandbox.New(sandbox.WorkspaceWrite, false)
	if err := sb.Available(); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	env := shellEnv(t)
	outside := filepath.Join("/var/tmp", filepath.Base(env.Roots.Primary())+"-outside-sbx")
	t.Cleanup(func() { _ = os.Remove(outside) })
	opts := ShellOptions{Sandbox: sb}
	res, _ := runShell(t, env, opts, map[string]any{"command": "touch " + outside})
	if !strings.Contains(res.Text, "outside_sandbox") {
		t.Errorf("the sandbox's note does not mention outside_sandbox:\n%s", res.Text)
	}

	args := map[string]any{"command": "touch " + outside, "outside_sandbox": true}
	res, _ = runShell(t, env, opts, args)
	if !res.IsError || fileExists(outside) {
		t.Fatalf("without approval: result %q, file created %v; want a refusal and no file", res.Text, fileExists(outside))
	}

	inv, err := shellTool(t, "run_shell_command", opts).Prepare(env, []byte(mustJSON(t, args)))
	if err != nil {
		t.Fatal(err)
	}
	esc, ok := inv.(interface {
		OutsideSandbox() bool
		AllowOutsideSandbox()
	})
	if !ok || !esc.OutsideSandbox() {
		t.Fatal("the call does not say it asks to leave the sandbox")
	}
	esc.AllowOutsideSandbox()
	if res, err = inv.Execute(context.Background(), newRecorder("")); err != nil || res.IsError {
		t.Fatalf("approved: %v, %+v", err, res)
	}
	if !fileExists(outside) {
		t.Error("the approved call outside the sandbox did not create the file")
	}
}

// TestOutsideSandboxWithSandboxOff: with no sandbox, outside_sandbox asks
// nothing special.
func TestOutsideSandboxWithSandboxOff(t *testing.T) {
	inv, err := shellTool(t, "run_shell_command", ShellOptions{}).Prepare(shellEnv(t), []byte(`{"command":"true","outside_sandbox":true}`))
	if err != nil {
		t.Fatal(err)
	}
	if inv.(interface{ OutsideSandbox() bool }).OutsideSandbox() {
		t.Error("OutsideSandbox with the sandbox off")
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
