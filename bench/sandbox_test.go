package bench

import (
	"os/exec"
	"slices"
	"testing"
	"time"

	"companion/tools/sandbox"
)

// BenchmarkSandboxOverhead runs `true` as the shell tool would start it,
// directly and under each sandboxed mode, and reports the median wall
// time of one command. The sandboxed rows skip where bubblewrap cannot
// create namespaces.
func BenchmarkSandboxOverhead(b *testing.B) {
	root := b.TempDir()
	for _, mode := range []sandbox.Mode{sandbox.Off, sandbox.ReadOnly, sandbox.WorkspaceWrite} {
		b.Run(string(mode), func(b *testing.B) {
			sb := sandbox.New(mode, false)
			if err := sb.Available(); mode.Sandboxed() && err != nil {
				b.Skip(err)
			}
			argv, err := sb.Wrap([]string{root}, []string{"true"})
			if err != nil {
				b.Fatal(err)
			}
			times := make([]time.Duration, 0, b.N)
			for b.Loop() {
				start := time.Now()
				if err := exec.Command(argv[0], argv[1:]...).Run(); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "ms-median-command")
		})
	}
}
