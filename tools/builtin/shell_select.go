package builtin

import (
	"os"
	"os/exec"
	"runtime"

	"companion/tools/shell"
)

// localShell is the program that runs commands on this machine, chosen
// once when the tool is made (see chooseShell).
func localShell(configured string) string {
	return chooseShell(runtime.GOOS, configured, exec.LookPath, os.Getenv)
}

// chooseShell picks the shell program for goos: the configured one, else
// on Windows cmd.exe (%ComSpec%), else bash, else sh. Lines for any shell
// but the bash family are never parsed (shell.AnalyzeFor), so on Windows
// every command is asked about.
func chooseShell(goos, configured string, lookPath func(string) (string, error), getenv func(string) string) string {
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

// shellArgv is the command that runs line under program: `cmd.exe /d /s /c
// line` (no AutoRun commands; the line as written), `pwsh -NoProfile
// -NonInteractive -Command line` for PowerShell, `program -c line` for
// every other shell.
func shellArgv(program, line string) []string {
	switch shell.ProgramName(program) {
	case "cmd":
		return []string{program, "/d", "/s", "/c", line}
	case "pwsh", "powershell":
		return []string{program, "-NoProfile", "-NonInteractive", "-Command", line}
	}
	return []string{program, "-c", line}
}

// cmdCommandLine is the raw Windows command line for argv when argv runs
// cmd.exe, or "" otherwise. cmd.exe does not split its command line the
// way CommandLineToArgvW does, so the quoting os/exec would add breaks
// lines holding quotes: with /s, cmd.exe takes everything between the
// first and the last quote after /c as the line, as it is.
func cmdCommandLine(argv []string) string {
	if len(argv) != 5 || shell.ProgramName(argv[0]) != "cmd" || argv[3] != "/c" {
		return ""
	}
	return `"` + argv[0] + `" /d /s /c "` + argv[4] + `"`
}
