package procgroup

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// shellKeeper is the keeper as a bash script. Its lifeline's first line
// is the tag; then come "pid starttime" lines, until companion dies. It
// then stops each recorded process still running as the one recorded
// (the start time tells a reused id apart) and, pass after pass until a
// pass finds none, every process whose environment holds the tag; then
// their descendants in turn (a stopped process forks no more); then it
// kills them all. read, mapfile, kill and the redirections are builtins:
// it forks nothing.
const shellKeeper = `read -r tag || exit 0
case $tag in ` + TagVar + `=?*) ;; *) tag= ;; esac
p=() s=()
while read -r a b; do p+=("$a") s+=("$b"); done
q=()
declare -A got
stop() {
  case $1 in ''|*[!0-9]*|0|1|$$) return 1;; esac
  [ -z "${got[$1]}" ] && kill -STOP "$1" 2>/dev/null && q+=("$1") && got[$1]=1
}
for i in "${!p[@]}"; do
  case ${p[i]} in ''|*[!0-9]*|0|1) continue;; esac
  st= ; { read -r st < "/proc/${p[i]}/stat"; } 2>/dev/null
  f=(${st##*')'})
  [ -n "$st" ] && [ "${f[19]}" = "${s[i]}" ] && stop "${p[i]}"
done
n=1
while [ -n "$tag" ] && [ "$n" -gt 0 ]; do
  n=${#q[@]}
  for d in /proc/[0-9]*; do
    x=${d#/proc/}
    [ -n "${got[$x]}" ] && continue
    e=(); { mapfile -d '' -t e < "$d/environ"; } 2>/dev/null
    IFS=$'\n' j="${e[*]}"
    [[ $'\n'$j$'\n' == *$'\n'"$tag"$'\n'* ]] && stop "$x"
  done
  n=$((${#q[@]} - n))
done
IFS=$' \t\n'
i=0
while [ "$i" -lt "${#q[@]}" ]; do
  for c in /proc/"${q[i]}"/task/*/children; do
    k=(); { read -r -a k < "$c"; } 2>/dev/null
    for x in "${k[@]}"; do stop "$x"; done
  done
  i=$((i+1))
done
[ "${#q[@]}" -gt 0 ] && kill -KILL "${q[@]}" 2>/dev/null
exit 0`

// children returns the ids of pid's children, from every thread's list
// (a child hangs off the thread that forked it, or that adopted it).
func children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, _ := os.ReadDir(dir)
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// keep is companion's own keeper (`companion __guard adopted`), for
// machines without bash: it reads the tag and then "pid starttime" lines
// until the lifeline ends, then kills what it was told of, everything
// that holds the tag, and their descendants.
func keep() int {
	sc := bufio.NewScanner(os.Stdin)
	if !sc.Scan() {
		return 0
	}
	tag := sc.Text()
	if !strings.HasPrefix(tag, TagVar+"=") || len(tag) == len(TagVar)+1 {
		tag = ""
	}
	type rec struct {
		pid   int
		start uint64
	}
	var recs []rec
	for sc.Scan() {
		p, s, _ := strings.Cut(sc.Text(), " ")
		pid, e1 := strconv.Atoi(p)
		start, e2 := strconv.ParseUint(s, 10, 64)
		if e1 == nil && e2 == nil && pid > 1 {
			recs = append(recs, rec{pid, start})
		}
	}
	t := newTree()
	for _, r := range recs {
		if st, ok := readStat(r.pid); ok && st.start == r.start {
			t.stop(r.pid)
		}
	}
	for tag != "" && t.stopTagged(tag) > 0 {
	}
	t.killAll()
	return 0
}

// tree is the set of processes a keeper stops, then kills.
type tree struct {
	q   []int
	got map[int]bool
}

func newTree() *tree { return &tree{got: map[int]bool{}} }

// stop stops pid (SIGSTOP) once and records it.
func (t *tree) stop(pid int) {
	if pid > 1 && pid != os.Getpid() && !t.got[pid] && syscall.Kill(pid, syscall.SIGSTOP) == nil {
		t.q = append(t.q, pid)
		t.got[pid] = true
	}
}

// stopTagged stops every process whose environment holds tag, and
// returns how many it had not stopped before.
func (t *tree) stopTagged(tag string) int {
	n := len(t.q)
	want := append([]byte(tag), 0)
	for _, pid := range allPids() {
		if t.got[pid] {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
		if err == nil && bytes.Contains(append([]byte{0}, b...), append([]byte{0}, want...)) {
			t.stop(pid)
		}
	}
	return len(t.q) - n
}

// killAll stops, breadth first, every descendant of what was stopped (a
// stopped process forks no more, so the walk ends), then kills them all.
func (t *tree) killAll() {
	for i := 0; i < len(t.q); i++ {
		for _, c := range children(t.q[i]) {
			t.stop(c)
		}
	}
	for _, pid := range t.q {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// allPids lists every process id in /proc.
func allPids() []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			out = append(out, pid)
		}
	}
	return out
}
