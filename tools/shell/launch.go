package shell

import (
	"os"
	"os/exec"
	"runtime"
)

// Local is the program that runs command lines on this machine: Program
// for runtime.GOOS and the real PATH and environment.
func Local(configured string) string {
	return Program(runtime.GOOS, configured, exec.LookPath, os.Getenv)
}

// Program picks the shell program for goos: the configured one, else on
// Windows cmd.exe (%ComSpec%), else bash, else sh. Lines for any shell but
// the bash family are never parsed (AnalyzeFor), so on Windows every
// command is asked about.
func Program(goos, configured string, lookPath func(string) (string, error), getenv func(string) string) string {
	if configured != "" {
		return configured
	}
	if goos == "windows" {
		if p := getenv("ComSpec"); p != "" {
			return p
		}
		return "cmd.exe"
	}
	if p, err := lookPath("bash"); err == nil {
		return p
	}
	return "sh"
}

// Argv is the command that runs line under program: `cmd.exe /d /s /c
// line` (no AutoRun commands; the line as written), `pwsh -NoProfile
// -NonInteractive -Command line` for PowerShell, `program -c line` for
// every other shell.
func Argv(program, line string) []string {
	switch ProgramName(program) {
	case "cmd":
		return []string{program, "/d", "/s", "/c", line}
	case "pwsh", "powershell":
		return []string{program, "-NoProfile", "-NonInteractive", "-Command", line}
	}
	return []string{program, "-c", line}
}

// CmdLine is the raw Windows command line for argv when argv runs cmd.exe
// (as Argv builds it), or "" otherwise. cmd.exe does not split its command
// line the way CommandLineToArgvW does, so the quoting os/exec would add
// breaks lines holding quotes: with /s, cmd.exe takes everything between
// the first and the last quote after /c as the line, as it is.
func CmdLine(argv []string) string {
	if len(argv) != 5 || ProgramName(argv[0]) != "cmd" || argv[3] != "/c" {
		return ""
	}
	return `"` + argv[0] + `" /d /s /c "` + argv[4] + `"`
}
