package procgroup

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
)

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
// machines without bash: it reads "pid starttime" lines until the
// lifeline ends, then kills what it was told of and its descendants.
func keep() int {
	type rec struct {
		pid   int
		start uint64
	}
	var recs []rec
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		p, s, _ := strings.Cut(sc.Text(), " ")
		pid, e1 := strconv.Atoi(p)
		start, e2 := strconv.ParseUint(s, 10, 64)
		if e1 == nil && e2 == nil && pid > 1 {
			recs = append(recs, rec{pid, start})
		}
	}
	var roots []int
	for _, r := range recs {
		if st, ok := readStat(r.pid); ok && st.start == r.start {
			roots = append(roots, r.pid)
		}
	}
	killTrees(roots)
	return 0
}

// killTrees stops each process of roots and, breadth first, every
// descendant (a stopped process forks no more, so the walk ends), then
// kills them all.
func killTrees(roots []int) {
	var q []int
	for _, pid := range roots {
		if syscall.Kill(pid, syscall.SIGSTOP) == nil {
			q = append(q, pid)
		}
	}
	for i := 0; i < len(q); i++ {
		for _, c := range children(q[i]) {
			if syscall.Kill(c, syscall.SIGSTOP) == nil {
				q = append(q, c)
			}
		}
	}
	for _, pid := range q {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
