package procgroup

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// guardPoll is how often a guard checks whether the group it watches has
// processes left, and exits when not.
const guardPoll = 50 * time.Millisecond

// shellGuard is the guard as a bash script. It reads the group from its
// standard input (the lifeline), then, while the group has processes,
// waits up to a poll for the lifeline to end; it ends only when companion
// has died, and then the group is killed. bash's read -t and kill are
// builtins, so the loop forks nothing. A group id that is not a number
// above 1 ends it (kill -- -1 would reach every process).
const shellGuard = `read -r g || exit 0
case $g in ''|*[!0-9]*|0|1) exit 0;; esac
while kill -0 -- -"$g" 2>/dev/null; do
  read -r -t 0.05 _
  if [ $? -le 128 ]; then kill -KILL -- -"$g"; exit 0; fi
done`

// guardArgv is the guard to use: the bash script when bash is installed
// (about 1 ms and 3 MB), else companion itself (tens of milliseconds of
// package initialisation and some 25 MB), else none.
func guardArgv() []string {
	if bash, err := exec.LookPath("bash"); err == nil {
		return []string{bash, "-c", shellGuard, "companion-guard"}
	}
	return selfGuard()
}

// startGuard starts guard and returns its lifeline and pid, or nil when
// it could not start (the command then runs unguarded). The guard is a sibling of
// the command, not its parent, in a process group of its own (signals to
// companion's group do not reach it), with no environment and no output.
// Its standard input is the lifeline: a pipe whose write end only
// companion holds, on which the caller writes the group's id and which is
// closed once the guard has exited, so the guard reads end of file
// exactly when companion dies (or when the command did not start).
func startGuard(guard []string) (io.WriteCloser, int) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, 0
	}
	g := exec.Command(guard[0], guard[1:]...)
	g.Env = []string{}
	g.Stdin = r
	g.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = g.Start()
	_ = r.Close()
	if err != nil {
		_ = w.Close()
		return nil, 0
	}
	go func() {
		_ = g.Wait()
		_ = w.Close() // held until now: closing it earlier would kill the group
	}()
	return w, g.Process.Pid
}

// Guard is companion's own guard, for machines without bash; it takes no
// arguments. It reads the group it guards from standard input, the
// lifeline from companion, kills the whole group (SIGKILL) as soon as the
// lifeline ends, and returns once the group has no process left. It
// returns 2 for arguments or a group it cannot take. With the single
// argument "adopted" it is companion's keeper instead (see keeper).
//
// The command's group id cannot be taken by another group while any
// process of it is left, so a guard never kills a stranger, save for a
// group that emptied and was reused within one poll.
func Guard(args []string) int {
	if len(args) == 1 && args[0] == adoptedArg {
		return keep()
	}
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadString('\n')
	if err != nil || len(args) != 0 {
		return 2
	}
	pgid, ok := parseGroup(line)
	if !ok {
		return 2
	}
	gone := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, in)
		close(gone)
	}()
	tick := time.NewTicker(guardPoll)
	defer tick.Stop()
	for Alive(pgid) {
		select {
		case <-gone:
			_ = Kill(pgid)
			return 0
		case <-tick.C:
		}
	}
	return 0
}

// parseGroup reads a process group id from a lifeline line. Only ids
// above 1 are taken: kill(-1) reaches every process and kill(0) the
// guard's own group.
func parseGroup(line string) (int, bool) {
	pgid, err := strconv.Atoi(strings.TrimSpace(line))
	return pgid, err == nil && pgid > 1
}
