package shell

import "strings"

// Reads reports whether Analyze can read the command lines the shell
// program runs: the POSIX family it parses (bash, sh, dash, ash). It says
// no for cmd.exe, PowerShell and any other shell (zsh, fish, nu): their
// syntax is not Bash's, so a line read as Bash could hide a command. The
// program may be a bare name or a path, with Windows separators and an
// .exe suffix.
func Reads(program string) bool {
	switch ProgramName(program) {
	case "bash", "sh", "dash", "ash":
		return true
	}
	return false
}

// AnalyzeFor is Analyze for the line as the given shell program will run
// it. For a shell Reads says no to, the line is not parsed (Parsed is
// false), so a permission policy asks the user about every such command,
// whatever its rules: on Windows, where commands run in cmd.exe or
// PowerShell, every command is asked about.
func AnalyzeFor(program, line string) Analysis {
	if !Reads(program) {
		return Analysis{}
	}
	return Analyze(line)
}

// ProgramName is a program's base name in lower case without an .exe
// suffix: "C:\Windows\System32\cmd.exe" is "cmd", "/usr/bin/bash" is
// "bash". Both separators count on every platform, so the answer does not
// depend on where it is computed.
func ProgramName(program string) string {
	name := program[strings.LastIndexAny(program, `/\`)+1:]
	name = strings.ToLower(name)
	return strings.TrimSuffix(name, ".exe")
}
