package shell

import (
	"errors"
	"slices"
	"testing"
)

// TestProgram: the configured shell wins; Windows defaults to
// %ComSpec% (else cmd.exe); elsewhere bash where it is found, else sh.
func TestProgram(t *testing.T) {
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
		if got := Program(tt.goos, tt.configured, tt.lookPath, env(tt.env)); got != tt.want {
			t.Errorf("%s: Program = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestArgv: each shell family gets its own way of running a line,
// and only cmd.exe gets a raw command line.
func TestArgv(t *testing.T) {
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
		argv := Argv(tt.program, line)
		if !slices.Equal(argv, tt.argv) {
			t.Errorf("Argv(%q) = %q, want %q", tt.program, argv, tt.argv)
		}
		if got := CmdLine(argv); got != tt.cmdLine {
			t.Errorf("CmdLine(%q) = %q, want %q", argv, got, tt.cmdLine)
		}
	}
}
