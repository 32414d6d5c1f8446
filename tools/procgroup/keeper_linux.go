package procgroup

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// adoptedArg is the argument of GuardCommand that runs companion's own
// keeper instead of a group's guard (see Guard).
const adoptedArg = "adopted"

// keeperArgv is the keeper to use, like guardArgv: the bash script, else
// companion itself, else none.
func keeperArgv() []string {
	if bash, err := exec.LookPath("bash"); err == nil {
		return []string{bash, "-c", shellKeeper, "companion-keeper"}
	}
	if self := selfGuard(); self != nil {
		return append(self, adoptedArg)
	}
	return nil
}

// keeper catches what a command leaves running outside its process group
// (a daemon that called setsid, a job that made itself a group leader) so
// it dies with companion as well. Two things find such a process:
//
//   - Every command's environment carries a tag (TagVar) unique to this
//     companion process, which everything it starts inherits. When
//     companion dies, the keeper process kills every process that still
//     holds the tag, with its descendants, wherever it went: no window
//     between a daemon's start and companion's death is left open.
//   - companion is a child subreaper: an orphan is re-parented to it
//     instead of to init, whatever session or group it is in. A loop
//     notices each such adoptee among companion's children, tells the
//     keeper its id and start time (so one that cleared its environment
//     is killed too), and reaps it when it exits, which nothing else
//     would. It polls only while a guarded group or an adoptee is alive,
//     or an exited adoptee waits to be reaped.
//
// An exited adoptee is reaped only once it has stayed a zombie for a
// whole poll. A child the process started itself in a session of its own
// (a test's pseudo-terminal, a library's daemon) looks adopted too, and
// whoever started it is already waiting: reaping it first would take its
// exit status away (ECHILD). Its waiter reaps it at once; nobody waits for
// a true adoptee, so it is still there at the next poll.
//
// The keeper process starts with the first command; its lifeline ends
// when companion dies.
type keeper struct {
	argv  []string // the keeper process
	self  procStat // companion's own session and group
	tag   string   // TagVar=value, in every command's environment
	added chan int // groups just started

	// startMu is held while a process procgroup starts comes to be and is
	// recorded as its own, and while the loop tells adoptees from
	// companion's own children: a scan never sees an unrecorded one.
	startMu sync.Mutex
	own     map[int]uint64 // group leaders procgroup started: pid → start time
	life    io.WriteCloser
	nolife  bool // the keeper process could not start

	mu      sync.Mutex
	adopted map[int]uint64 // adoptee pid → start time, told to the keeper

	zombies map[int]uint64 // exited adoptees seen by the last scan: pid → start time (the loop's own)
}

// TagVar is the environment variable that marks every process a command
// of this companion started (see keeper).
const TagVar = "COMPANION_KEEPER_TAG"

// newKeeper makes companion a child subreaper with argv as its keeper
// process, or returns nil when it cannot (commands then run guarded by
// group alone, as before).
func newKeeper(argv []string) *keeper {
	self, ok := readStat(os.Getpid())
	var b [16]byte
	if len(argv) == 0 || !ok {
		return nil
	}
	if _, err := rand.Read(b[:]); err != nil {
		return nil
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return nil
	}
	k := &keeper{argv: argv, self: self, tag: TagVar + "=" + hex.EncodeToString(b[:]), added: make(chan int, 64),
		own: map[int]uint64{}, adopted: map[int]uint64{}}
	go k.loop()
	return k
}

// start starts cmd as start does, tagged, with the keeper process running
// first, and has the loop watch its group. A nil keeper only starts it.
func (k *keeper) start(cmd *exec.Cmd, guard []string) error {
	if k == nil {
		return start(cmd, guard)
	}
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(slices.Clip(cmd.Env), k.tag)
	k.startMu.Lock()
	k.lifeLocked()
	err := startOwned(cmd, guard, k.ownLocked)
	k.startMu.Unlock()
	if err == nil {
		k.added <- cmd.Process.Pid
	}
	return err
}

// lifeLocked starts the keeper process and hands it the tag, once.
func (k *keeper) lifeLocked() {
	if k.life != nil || k.nolife {
		return
	}
	var pid int
	if k.life, pid = startGuard(k.argv); k.life == nil {
		k.nolife = true
		return
	}
	k.ownLocked(pid)
	_, _ = fmt.Fprintln(k.life, k.tag)
}

// ownLocked records a process procgroup started as companion's own.
func (k *keeper) ownLocked(pid int) {
	if st, ok := readStat(pid); ok {
		k.own[pid] = st.start
	}
}

// loop polls companion's children while any watched group or adoptee is
// alive, and sleeps until the next group otherwise. It runs for the life
// of the process, like the keeper it feeds.
func (k *keeper) loop() {
	groups := map[int]bool{}
	tick := time.NewTicker(guardPoll)
	defer tick.Stop()
	for {
		if len(groups) == 0 && k.count() == 0 && len(k.zombies) == 0 {
			groups[<-k.added] = true
		}
		select {
		case g := <-k.added:
			groups[g] = true
		case <-tick.C:
		}
		// Groups first: an adoptee re-parented before its group emptied
		// is among the children the scan then reads.
		for g := range groups {
			if !Alive(g) {
				delete(groups, g)
			}
		}
		k.scan()
	}
}

// count is the number of live adoptees known.
func (k *keeper) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.adopted)
}

// known reports whether the keeper was told of pid.
func (k *keeper) known(pid int) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.adopted[pid]
	return ok
}

// scan reads companion's children: adoptees that exited are reaped, new
// ones are told to the keeper, and those gone are forgotten, as are own
// processes no longer there.
func (k *keeper) scan() {
	live := map[int]uint64{}
	k.startMu.Lock()
	kids := map[int]bool{}
	zombies := map[int]uint64{}
	for _, pid := range children(os.Getpid()) {
		st, ok := readStat(pid)
		if !ok {
			continue
		}
		kids[pid] = true
		if !k.adoptee(pid, st) {
			continue
		}
		if st.state == 'Z' {
			k.reapLate(pid, st.start, zombies)
			continue
		}
		live[pid] = st.start
	}
	for pid := range k.own {
		if !kids[pid] {
			delete(k.own, pid)
		}
	}
	k.zombies = zombies
	life := k.life
	k.startMu.Unlock()
	k.mu.Lock()
	defer k.mu.Unlock()
	for pid, start := range live {
		if k.adopted[pid] != start && life != nil {
			_, _ = fmt.Fprintf(life, "%d %d\n", pid, start)
		}
	}
	k.adopted = live
}

// reapLate reaps the exited adoptee pid if the last scan saw it exited
// already (see keeper), and otherwise notes it in next for the next scan.
func (k *keeper) reapLate(pid int, start uint64, next map[int]uint64) {
	if seen, ok := k.zombies[pid]; !ok || seen != start {
		next[pid] = start
		return
	}
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
}

// adoptee tells a child companion adopted from one it started. companion
// starts children in its own session only: in its own group (which an
// orphan could join; the tag still finds it), or as the leaders of new
// groups, each recorded as its own when procgroup starts it. Any other
// child, in another session or another group, was adopted.
func (k *keeper) adoptee(pid int, st procStat) bool {
	if st.sid != k.self.sid {
		return true
	}
	start, mine := k.own[pid]
	return st.pgid != k.self.pgid && !(mine && start == st.start)
}

// procStat is what /proc/PID/stat says of a process.
type procStat struct {
	state      byte
	ppid, pgid int
	sid        int
	start      uint64 // clock ticks after boot
}

// readStat reads /proc/PID/stat; comm, in parentheses, may hold spaces
// and parentheses itself, so the fields are counted from its end.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(string(b))
}

// parseStat parses the text of /proc/PID/stat.
func parseStat(s string) (procStat, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 >= len(s) {
		return procStat{}, false
	}
	f := strings.Fields(s[i+2:]) // state ppid pgrp session tty_nr ... starttime (22nd of the line)
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, false
	}
	ppid, e1 := strconv.Atoi(f[1])
	pgid, e2 := strconv.Atoi(f[2])
	sid, e3 := strconv.Atoi(f[3])
	start, e4 := strconv.ParseUint(f[19], 10, 64)
	if e1 != nil || e2 != nil || e3 != nil || e4 != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], ppid: ppid, pgid: pgid, sid: sid, start: start}, true
}
