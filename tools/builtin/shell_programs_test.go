package builtin

import (
	"context"
	"testing"
)

// TestNonBashShellsAreNotParsed: a line for cmd.exe or PowerShell (the
// Windows shells) is never read as Bash, so its confirmation says
// unparsed and the policy asks about it whatever the rules; an editor
// terminal runs it in that shell too.
func TestNonBashShellsAreNotParsed(t *testing.T) {
	env := newEnv(t, t.TempDir())
	for _, program := range []string{"cmd.exe", `C:\Windows\System32\cmd.exe`, "pwsh", "powershell.exe"} {
		inv, err := newRunShell(ShellOptions{Shell: program}).Prepare(env, []byte(`{"command": "ls -la"}`))
		if err != nil {
			t.Fatal(err)
		}
		conf, err := inv.Confirmation(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if conf.Parsed || conf.Commands != nil || conf.RootCommands != nil {
			t.Errorf("%s: Parsed %v, Commands %v, RootCommands %v", program, conf.Parsed, conf.Commands, conf.RootCommands)
		}
		req := inv.(*runShellCall).terminalRequest()
		if req.Command != program || req.Args[len(req.Args)-1] != "ls -la" {
			t.Errorf("%s: terminal runs %q %q", program, req.Command, req.Args)
		}
	}
}
