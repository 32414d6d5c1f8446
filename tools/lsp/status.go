package lsp

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Status is one server for one root as the pool knows it.
type Status struct {
	Name, Root string
	// State is one of the State constants.
	State string
	// Reason says why it failed or ended, when it did.
	Reason string
	// PID is the running server's process id; 0 when none runs.
	PID int
	// RSS is its resident memory in bytes, 0 when unknown.
	RSS int64
	// Restarts counts its starts after a crash.
	Restarts int
	// Pulls is set for a running server that is asked for diagnostics
	// (it offers textDocument/diagnostic) rather than awaited.
	Pulls bool
}

// status reports the entry's state.
func (e *entry) status() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := Status{State: e.state, Reason: e.reason, Restarts: e.restarts}
	if e.in != nil {
		st.PID = e.in.proc.pid()
		st.RSS = residentBytes(st.PID)
		st.Pulls = e.in.client.PullsDiagnostics()
	}
	return st
}

// String is one line: name, root, state, memory, how diagnostics come,
// and why.
func (s Status) String() string {
	out := fmt.Sprintf("%s (%s): %s", s.Name, s.Root, s.State)
	if s.RSS > 0 {
		out += fmt.Sprintf(", %d MB", s.RSS>>20)
	}
	if s.Pulls {
		out += ", diagnostics pulled"
	}
	if s.Restarts > 0 {
		out += fmt.Sprintf(", %d restarts", s.Restarts)
	}
	if s.Reason != "" {
		out += " (" + s.Reason + ")"
	}
	return out
}

// residentBytes reads a process's resident set size from /proc (Linux);
// 0 elsewhere or when it cannot be read.
func residentBytes(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
