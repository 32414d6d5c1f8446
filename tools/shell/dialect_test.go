package shell

import "testing"

// TestAnalyzeFor: lines for bash-family shells are read; lines for
// cmd.exe, PowerShell and other shells are never parsed, so every such
// command is asked about.
func TestAnalyzeFor(t *testing.T) {
	tests := []struct {
		program string
		parsed  bool
	}{
		{"bash", true},
		{"/usr/bin/bash", true},
		{"/bin/sh", true},
		{"dash", true},
		{`C:\Program Files\Git\bin\bash.exe`, true},
		{"cmd.exe", false},
		{`C:\Windows\System32\cmd.exe`, false},
		{"CMD.EXE", false},
		{"pwsh", false},
		{"powershell.exe", false},
		{`C:\Program Files\PowerShell\7\pwsh.exe`, false},
		{"zsh", false},
		{"fish", false},
		{"", false},
	}
	for _, tt := range tests {
		a := AnalyzeFor(tt.program, "ls -la")
		if a.Parsed != tt.parsed {
			t.Errorf("AnalyzeFor(%q).Parsed = %v, want %v", tt.program, a.Parsed, tt.parsed)
		}
		if !tt.parsed && (len(a.Commands) > 0 || len(a.RootCommands) > 0) {
			t.Errorf("AnalyzeFor(%q) found commands in a line it cannot read: %+v", tt.program, a)
		}
		if tt.parsed && (len(a.RootCommands) != 1 || a.RootCommands[0] != "ls") {
			t.Errorf("AnalyzeFor(%q).RootCommands = %q", tt.program, a.RootCommands)
		}
	}
}

func TestProgramName(t *testing.T) {
	for in, want := range map[string]string{
		"bash": "bash", `C:\Windows\System32\cmd.exe`: "cmd", "/usr/local/bin/PWSH": "pwsh", "powershell.EXE": "powershell",
	} {
		if got := ProgramName(in); got != want {
			t.Errorf("ProgramName(%q) = %q, want %q", in, got, want)
		}
	}
}
