package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// protectRows are the adversarial rows for the paths the sandbox keeps
// whatever a command does to the folders above them (issue 26): a
// repository's .git replaced through a rename, .git and .companion
// created where they did not exist, and companion's own environment read
// through /proc. A planted git config is proven by the host's git
// running its fsmonitor command, as the user's or the editor's would.
func protectRows() []escape {
	return []escape{
		{name: "renamed .git replaced by a planted one", needs: "git", cmd: func(fx *sbxFixture) string {
			return "mv .git .git-old && mkdir .git && cp -r .git-old/. .git/ && " + plantMonitor(fx, "renamed") + " >> .git/config"
		}, happened: func(fx *sbxFixture) bool { return hostGitRuns(fx, "renamed") }, want: unsandboxed},
		{name: "renamed .companion replaced", cmd: func(*sbxFixture) string {
			return "mv .companion .companion-old && mkdir .companion && cp -r .companion-old/. .companion/ && touch .companion/planted.json"
		}, happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, ".companion", "planted.json")) }, want: unsandboxed},
		// The command prints what it finds; the editor sees the output.
		// The pattern does not spell a secret, so the command line shown
		// with it holds none. Root's commands read it without the
		// sandbox (companion is not dumpable; root may trace it anyway).
		{name: "companion's environment through /proc", cmd: func(*sbxFixture) string {
			return `cat /proc/[0-9]*/environ 2>/dev/null | tr '\0' '\n' | grep -a -o 'mark-[a-z]*-47[1]1' | sort -u`
		}, happened: func(fx *sbxFixture) bool {
			for _, m := range secretMarks {
				if _, v, _ := strings.Cut(m, "="); strings.Contains(fx.out, v) {
					return true
				}
			}
			return false
		}, want: func(_, mode string) bool { return mode == "off" && os.Geteuid() == 0 }},
		// The open git holes (commondir, a submodule in .git/index) are
		// tools/sandbox's TestGitHoles: in one command line here they would
		// hide each other's planted config from the control's git status.
		// Items 5 and 7: code an interpreter reads on stdin and a builtin's
		// callback are confined like any command.
		{name: "python3 fed on stdin", needs: "python3", cmd: func(fx *sbxFixture) string {
			return fmt.Sprintf(`echo "open('%s','w')" | python3`, filepath.Join(fx.outside, "py-stdin"))
		}, happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.outside, "py-stdin")) }, want: unsandboxed},
		{name: "compgen -C callback", cmd: func(fx *sbxFixture) string {
			return fmt.Sprintf("compgen -C 'touch %s' x", filepath.Join(fx.outside, "compgen"))
		}, happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.outside, "compgen")) }, want: unsandboxed},
		{name: "write inside a folder of a fresh workspace", fresh: true, cmd: func(*sbxFixture) string { return "touch src/inside" },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, "src", "inside")) }, want: writable},
		// Nothing is created at the top level of a folder without .git:
		// the backends cannot refuse .git alone there (docs/sandbox.md).
		{name: "write at a fresh workspace's top level", fresh: true, cmd: func(*sbxFixture) string { return "touch top" },
			happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, "top")) }, want: unsandboxed},
		{name: ".companion created", fresh: true, cmd: func(*sbxFixture) string {
			return "mkdir -p .companion && echo '{}' > .companion/settings.json"
		}, happened: func(fx *sbxFixture) bool { return exists(filepath.Join(fx.ws, ".companion", "settings.json")) }, want: unsandboxed},
		{name: "git init plants a config", fresh: true, needs: "git", cmd: func(fx *sbxFixture) string {
			return "git init -q . && " + plantMonitor(fx, "init") + " >> .git/config"
		}, happened: func(fx *sbxFixture) bool { return hostGitRuns(fx, "init") }, want: unsandboxed},
	}
}

// plantMonitor is a command printing a git config section whose
// fsmonitor creates the marker named name.
func plantMonitor(fx *sbxFixture, name string) string {
	return fmt.Sprintf(`printf '[core]\n\tfsmonitor = touch %s\n'`, monitorMark(fx, name))
}

func monitorMark(fx *sbxFixture, name string) string {
	return filepath.Join(fx.base, "fsmonitor-ran-"+name)
}

// hostGitRuns runs git status in the workspace outside any sandbox, with
// no user or system configuration, and reports whether it ran the
// fsmonitor command named name.
func hostGitRuns(fx *sbxFixture, name string) bool {
	cmd := exec.Command("git", "status")
	cmd.Dir = fx.ws
	cmd.Env = []string{"HOME=" + fx.home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CEILING_DIRECTORIES=" + fx.base}
	_ = cmd.Run()
	return exists(monitorMark(fx, name))
}
