//go:build linux

package bench

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// BenchmarkPeakRSS runs the real binary through one whole ACP session —
// spawn, initialize, session/new, one prompt answered by a scripted model
// that echoes at once, stdin closed, exit — and reports the child's peak
// resident memory up to the answered prompt (VmHWM) for the development
// build and the release build (`make release`), the median of b.N runs.
func BenchmarkPeakRSS(b *testing.B) {
	forEachBuild(b, func(b *testing.B, bin string) {
		ws := b.TempDir()
		script := filepath.Join(ws, "script.json")
		if err := os.WriteFile(script, []byte(`{"turns":[],"fallback":"echo"}`), 0o644); err != nil {
			b.Fatal(err)
		}
		var peaks []float64
		b.ResetTimer()
		for range b.N {
			peaks = append(peaks, onePromptPeakKB(b, bin, script, ws))
		}
		b.StopTimer()
		slices.Sort(peaks)
		b.ReportMetric(peaks[len(peaks)/2]/1024, "MB-median-peak-rss")
	})
}

// onePromptPeakKB runs one session with one prompt in a child process and
// returns its peak RSS in KiB.
func onePromptPeakKB(b *testing.B, bin, script, ws string) float64 {
	cmd := exec.Command(bin, "acp", "--script", script)
	cmd.Dir, cmd.Env = ws, []string{"HOME=" + ws, "PATH=" + os.Getenv("PATH")}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	c := &wire{w: stdin, sc: sc}
	c.call(b, "initialize", `{"protocolVersion":1}`)
	id := c.newSession(b)
	if chunks := c.prompt(b, id); len(chunks) == 0 {
		b.Fatal("the prompt was answered without a message chunk")
	}
	// The peak is read from /proc (VmHWM) while the process still runs,
	// not from the child's rusage: os/exec starts it with CLONE_VM, so at
	// execve the kernel folds this benchmark process's own high-water mark
	// into the child's ru_maxrss, and the figure followed the test binary.
	kb := statusKB(cmd.Process.Pid, "VmHWM:")
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatalf("companion acp: %v", err)
	}
	if kb == 0 {
		b.Skip("no /proc on this platform")
	}
	return kb
}
