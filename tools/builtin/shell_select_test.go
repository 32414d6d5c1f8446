package builtin

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestChooseShell: the configured shell wins; Windows defaults to
// %ComSpec% (else cmd.exe); elsewhere bash where it is found, else sh.
func TestChooseShell(t *testing.T) {
	found := func(string) (string, error) { return "/usr/bin/bash", nil }
	missing := func(string) (string, error) { return "", errors.New("not found") }
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		name, goos, configured string
		lookPath               func(string) (string, error)
		env                    map[string]string
		want                   string
	}{
		{"linux bash", "linux", "", found, nil, "/usr/bin/bash"},
		{"linux sh", "linux", "", missing, nil, "sh"},
		{"configured", "linux", "/bin/zsh", found, nil, "/bin/zsh"},
		{"windows comspec", "windows", "", found, map[string]string{"ComSpec": `C:\Windows\system32\cmd.exe`}, `C:\Windows\system32\cmd.exe`},
		{"windows cmd", "windows", "", found, nil, "cmd.exe"},
		{"windows powershell", "windows", "pwsh", found, map[string]string{"ComSpec": "cmd.exe"}, "pwsh"},
	}
	for _, tt := range tests {
		if got := chooseShell(tt.goos, tt.configured, tt.lookPath, env(tt.env)); got != tt.want {
			t.Errorf("%s: chooseShell = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestShellArgv: each shell family gets its own way of running a line,
// and only cmd.exe gets a raw command line.
func TestShellArgv(t *testing.T) {
	line := `echo "a b" & dir`
	tests := []struct {
		program string
		argv    []string
		cmdLine string
	}{
		{"/usr/bin/bash", []string{"/usr/bin/bash", "-c", line}, ""},
		{"sh", []string{"sh", "-c", line}, ""},
		{`C:\Windows\system32\cmd.exe`, []string{`C:\Windows\system32\cmd.exe`, "/d", "/s", "/c", line},
			`"C:\Windows\system32\cmd.exe" /d /s /c "echo "a b" & dir"`},
		{"pwsh", []string{"pwsh", "-NoProfile", "-NonInteractive", "-Command", line}, ""},
		{"powershell.exe", []string{"powershell.exe", "-NoProfile", "-NonInteractive", "-Command", line}, ""},
	}
	for _, tt := range tests {
		argv := shellArgv(tt.program, line)
		if !slices.Equal(argv, tt.argv) {
			t.Errorf("shellArgv(%q) = %q, want %q", tt.program, argv, tt.argv)
		}
		if got := cmdCommandLine(argv); got != tt.cmdLine {
			t.Errorf("cmdCommandLine(%q) = %q, want %q", argv, got, tt.cmdLine)
		}
	}
}

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
