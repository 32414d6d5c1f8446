package procgroup

import (
	"fmt"
	"io"
	"os"
	"os/exec"
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

// shellKeeper is the keeper as a bash script. It reads "pid starttime"
// lines from its lifeline until companion dies, then stops each recorded
// process still running as the one recorded (the start time tells a
// reused id apart), stops their descendants in turn (a stopped process
// forks no more), and kills them all. read, kill and the redirections are
// builtins: it forks nothing.
const shellKeeper = `p=() s=()
while read -r a b; do p+=("$a") s+=("$b"); done
q=()
for i in "${!p[@]}"; do
  case ${p[i]} in ''|*[!0-9]*|0|1) continue;; esac
  st= ; { read -r st < "/proc/${p[i]}/stat"; } 2>/dev/null
  f=(${st##*')'})
  [ -n "$st" ] && [ "${f[19]}" = "${s[i]}" ] && kill -STOP "${p[i]}" 2>/dev/null && q+=("${p[i]}")
done
i=0
while [ "$i" -lt "${#q[@]}" ]; do
  for c in /proc/"${q[i]}"/task/*/children; do
    k=(); { read -r -a k < "$c"; } 2>/dev/null
    for x in "${k[@]}"; do kill -STOP "$x" 2>/dev/null && q+=("$x"); done
  done
  i=$((i+1))
done
[ "${#q[@]}" -gt 0 ] && kill -KILL "${q[@]}" 2>/dev/null
exit 0`

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
// (a daemon that called setsid, say) so it dies with companion as well.
// companion becomes a child subreaper: a process whose parent dies is
// re-parented to companion instead of to init, whatever session or group
// it is in. A loop notices each such adoptee among companion's children
// and tells the keeper process, over its lifeline, its id and start time;
// the keeper kills those still running, with their descendants, when the
// lifeline ends (companion died). The loop also reaps adoptees that exit,
// which nothing else would wait for. It polls only while a guarded group
// or an adoptee is alive.
type keeper struct {
	argv   []string // the keeper process, started at the first adoptee
	self   procStat // companion's own session and group
	added  chan int // groups just started
	life   io.WriteCloser
	nolife bool // the keeper process could not start

	mu      sync.Mutex
	adopted map[int]uint64 // adoptee pid → start time, told to the keeper
}

// newKeeper makes companion a child subreaper with argv as its keeper
// process, or returns nil when it cannot (commands then run guarded by
// group alone, as before). The keeper process starts at the first
// adoptee: most sessions have none, and pay for no second process.
func newKeeper(argv []string) *keeper {
	self, ok := readStat(os.Getpid())
	if len(argv) == 0 || !ok {
		return nil
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return nil
	}
	k := &keeper{argv: argv, self: self, added: make(chan int, 64), adopted: map[int]uint64{}}
	go k.loop()
	return k
}

// watch has the loop poll while the group led by pgid is alive: what
// the group's processes leave behind is adopted while it runs.
func (k *keeper) watch(pgid int) {
	if k != nil {
		k.added <- pgid
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
		if len(groups) == 0 && k.count() == 0 {
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
// ones are told to the keeper, and those gone are forgotten.
func (k *keeper) scan() {
	seen := map[int]bool{}
	for _, pid := range children(os.Getpid()) {
		st, ok := readStat(pid)
		if !ok || !k.adoptee(pid, st) {
			continue
		}
		if st.state == 'Z' {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
			continue
		}
		seen[pid] = true
		k.tell(pid, st.start)
	}
	k.mu.Lock()
	for pid := range k.adopted {
		if !seen[pid] {
			delete(k.adopted, pid)
		}
	}
	k.mu.Unlock()
}

// tell has the keeper process (started now if need be) record an
// adoptee not told of yet.
func (k *keeper) tell(pid int, start uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.adopted[pid] == start {
		return
	}
	if k.life == nil && !k.nolife {
		k.life = startGuard(k.argv)
		k.nolife = k.life == nil
	}
	if k.life != nil {
		_, _ = fmt.Fprintf(k.life, "%d %d\n", pid, start)
	}
	k.adopted[pid] = start
}

// adoptee tells a child companion adopted from one it started. companion
// starts children in its own session only, either in its own group or as
// leaders of new ones (procgroup, guards); a child in another session, or
// in another group that it does not lead, was adopted. An orphan that
// made itself a group leader in companion's session cannot be told apart
// and is left alone (its group's guard still kills it while that group
// has the orphan's original group id).
func (k *keeper) adoptee(pid int, st procStat) bool {
	return st.sid != k.self.sid || (st.pgid != k.self.pgid && st.pgid != pid)
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
