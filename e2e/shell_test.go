package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// shellCall is a run_shell_command call for the scripted model.
func shellCall(cmd string) string {
	return modelCall("run_shell_command", map[string]any{"command": cmd, "description": "test command"})
}

func TestShellEverywhere(t *testing.T) {
	t.Parallel()
	for name, caps := range clientCaps() {
		t.Run(name, func(t *testing.T) {
			ws := workspace(t, nil)
			fake := acptest.NewFake()
			answers := []string{"proceed_always", "proceed_once"}
			n := 0
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) {
				a := answers[min(n, len(answers)-1)]
				n++
				return a, nil
			}
			ed := startAgent(t, agentOpts{script: `{"turns":[
				{"chunks":[` + shellCall("echo hello > out.txt && echo printed") + `]},
				{"match":"printed","chunks":[` + shellCall("echo again >> out.txt") + `]},
				{"chunks":[{"text":"done"}]}],"fallback":"error"}`, handler: fake.Handle})
			ed.Initialize(caps)
			id := ed.NewSession(ws)
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "run it"))); got != "end_turn" {
				t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
			}
			if got := readFile(t, filepath.Join(ws, "out.txt")); got != "hello\nagain\n" {
				t.Errorf("out.txt = %q", got)
			}
			if len(fake.Permissions) != 1 {
				t.Errorf("asked %d times, want 1 (echo allowed always after the first)", len(fake.Permissions))
			}
			if len(fake.Permissions) > 0 && !strings.Contains(string(fake.Permissions[0].ToolCall.Content[0]), "echo hello") {
				t.Errorf("permission content = %s", fake.Permissions[0].ToolCall.Content)
			}
			calls := strings.Join(fake.Calls, " ")
			if terminals := caps["terminal"] == true; strings.Contains(calls, "terminal/create") != terminals {
				t.Errorf("terminal used = %v, want %v (%s)", !terminals, terminals, calls)
			}
			if u := fake.Unreleased(); len(u) != 0 {
				t.Errorf("terminals never released: %v", u)
			}
			ed.Close()
		})
	}
}

func TestShellPolicyNeverBypassed(t *testing.T) {
	t.Parallel()
	// "echo" is allowed always; each line also runs something else, which
	// must still be asked about (and is rejected here, so nothing runs).
	lines := []string{
		"echo a; touch pwned", "echo a && touch pwned", "echo a || touch pwned", "echo a | tee pwned",
		"echo $(touch pwned)", "echo `touch pwned`", "echo a\ntouch pwned", "env X=1 touch pwned",
		"bash -c 'touch pwned'", "echo a > /tmp/companion-e2e-outside-$$",
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			ws := workspace(t, nil)
			fake := acptest.NewFake()
			fake.Answer = func(acptest.PermissionRequest) (string, map[string]any) { return "reject_once", nil }
			ed := startAgent(t, agentOpts{handler: fake.Handle, settings: `{"permissions":{"allow":["run_shell_command(echo)","shell(tee /dev/null)"]}}`,
				script: `{"turns":[{"chunks":[` + shellCall(line) + `]},{"chunks":[{"text":"ok"}]}]}`})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(ws)
			ed.StopReason(ed.Wait(ed.Prompt(id, "go")))
			if len(fake.Permissions) != 1 {
				t.Errorf("asked %d times, want 1", len(fake.Permissions))
			}
			if _, err := filepath.Glob(filepath.Join(ws, "pwned")); err == nil {
				if m, _ := filepath.Glob(filepath.Join(ws, "pwned")); len(m) > 0 {
					t.Errorf("the rejected line ran")
				}
			}
			ed.Close()
		})
	}
}
