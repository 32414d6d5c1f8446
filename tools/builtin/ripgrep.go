package builtin

import (
	"os/exec"
	"sync"
)

// rgLocator finds the rg binary a tool runs, once, on first use.
type rgLocator struct {
	// setting is ReadOnlyOptions.RipgrepPath: "" looks rg up on PATH, "-"
	// never uses it, anything else is the binary.
	setting string
	once    sync.Once
	path    string
}

// find returns rg's path, or "" to use the Go engine.
func (l *rgLocator) find() string {
	l.once.Do(func() {
		switch l.setting {
		case "-":
		case "":
			l.path, _ = exec.LookPath("rg")
		default:
			l.path = l.setting
		}
	})
	return l.path
}

// rgIgnoreArgs narrows ripgrep's ignore handling to the part of ours it
// does exactly: the .gitignore files at and below where it starts, with or
// without a git repository. The rest (.geminiignore files, the ignore
// files between the root and the start, .git/info/exclude, the global
// excludes file) only ever leaves more out, and the caller filters rg's
// output through the same rules as the Go engine. respect false turns all
// ignore files off. .git is never listed either way.
func rgIgnoreArgs(respect bool) []string {
	args := []string{"--no-config", "--hidden", "--no-messages"}
	if respect {
		args = append(args, "--no-require-git", "--no-ignore-parent", "--no-ignore-global",
			"--no-ignore-exclude", "--no-ignore-dot")
	} else {
		args = append(args, "--no-ignore")
	}
	return append(args, "--glob", "!"+gitDir)
}
