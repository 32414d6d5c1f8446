package companion

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
)

// maxAncestors bounds the walk up the process tree.
const maxAncestors = 64

// ancestors lists the parent, grandparent, ... of pid from
// <procRoot>/<pid>/stat, nearest first, up to and including process 1.
// Without a proc file system it returns none.
func ancestors(procRoot string, pid int) []int {
	if procRoot == "" {
		return nil
	}
	var out []int
	for range maxAncestors {
		ppid, ok := parentPID(procRoot, pid)
		if !ok || ppid <= 0 || ppid == pid {
			break
		}
		out = append(out, ppid)
		if ppid == 1 {
			break
		}
		pid = ppid
	}
	return out
}

// parentPID reads the parent of pid: the field after the state in
// /proc/<pid>/stat, which follows the command name in parentheses (a name
// that may itself hold spaces and parentheses, hence the last ')').
func parentPID(procRoot string, pid int) (int, bool) {
	data, err := os.ReadFile(filepath.Join(procRoot, strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(data[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(fields[1]))
	return ppid, err == nil
}

// processAlive reports whether pid runs: <procRoot>/<pid> exists when there
// is a proc file system, else the kernel answers signal 0 (on systems
// without signals every process counts as alive).
func processAlive(procRoot string, pid int) bool {
	if pid <= 0 {
		return false
	}
	if procRoot != "" {
		_, err := os.Stat(filepath.Join(procRoot, strconv.Itoa(pid)))
		return err == nil
	}
	return signalAlive(pid)
}
