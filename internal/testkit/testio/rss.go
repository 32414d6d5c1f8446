package testio

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// ResetPeakRSS resets the process's peak resident set size (Linux) and
// reports whether PeakRSS can then be trusted.
func ResetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// PeakRSS returns the process's peak resident set size in bytes since the
// last reset (Linux's VmHWM), or 0 when unknown.
func PeakRSS() uint64 { return statusKB("VmHWM:") }

// RSS returns the process's resident set size in bytes now (Linux's
// VmRSS), or 0 when unknown.
func RSS() uint64 { return statusKB("VmRSS:") }

// statusKB reads the field named by key (with its colon) from
// /proc/self/status, in bytes.
func statusKB(key string) uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), key); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
