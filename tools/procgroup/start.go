package procgroup

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// GuardCommand is the hidden subcommand of companion that runs its own
// guard (see Guard). main dispatches to it before any other work.
const GuardCommand = "__guard"

// Start starts cmd as the leader of a new process group and, on Linux,
// puts the group under a guard that kills all of it (SIGKILL) when
// companion dies: exit, crash or kill -9. The command stays companion's
// direct child, so its exit status, signals and standard streams are
// exactly what they would be without the guard. Elsewhere, and when no
// guard can start, the command runs unguarded (today's behaviour there:
// it outlives a companion that dies). On Linux, what the command leaves
// running outside its group (a daemon in a session of its own) dies with
// companion as well (see keeper).
func Start(cmd *exec.Cmd) error {
	return defaultKeeper().start(cmd, defaultGuard())
}

// defaultKeeper is the process-wide keeper of what commands leave behind
// outside their groups (see keeper), started at the first command: being
// a child subreaper is a property of the whole process, so there is one.
var defaultKeeper = sync.OnceValue(func() *keeper { return newKeeper(keeperArgv()) })

// defaultGuard is the guard Start uses, looked up once (bash on PATH, else
// the running executable) at the first command: the lookup costs a PATH
// walk, and the answer cannot change in a way that matters while companion
// runs. It is written once and only read after.
var defaultGuard = sync.OnceValue(guardArgv)

// start starts cmd in a new process group, guarded by the guard command
// when guard is not empty. The guard starts first and learns the group
// from its lifeline once cmd has started, so a companion that dies at any
// moment after cmd's start leaves no unguarded command (save in the
// microseconds between the start and that write).
func start(cmd *exec.Cmd, guard []string) error { return startOwned(cmd, guard, nil) }

// startOwned is start that tells own, when not nil, of each process it
// starts (the guard and the command), as soon as it runs.
func startOwned(cmd *exec.Cmd, guard []string, own func(pid int)) error {
	cmd.SysProcAttr = withAttr(cmd.SysProcAttr)
	var lifeline io.WriteCloser
	if len(guard) > 0 {
		var pid int
		if lifeline, pid = startGuard(guard); lifeline != nil && own != nil {
			own(pid)
		}
	}
	if err := cmd.Start(); err != nil {
		if lifeline != nil {
			_ = lifeline.Close() // the guard reads no group and exits
		}
		return err
	}
	if own != nil {
		own(cmd.Process.Pid)
	}
	if lifeline != nil {
		_, _ = fmt.Fprintf(lifeline, "%d\n", cmd.Process.Pid)
	}
	return nil
}

// selfGuard is the running executable as a guard (`exe __guard`), or nil
// when it cannot be one: test binaries (names ending in ".test") do not
// dispatch GuardCommand.
func selfGuard() []string {
	exe, err := os.Executable()
	if err != nil || strings.HasSuffix(exe, ".test") {
		return nil
	}
	return []string{exe, GuardCommand}
}
