package bench

import (
	"os/exec"
	"slices"
	"testing"
	"time"

	"companion/tools/sandbox"
)

// BenchmarkSandboxOverhead runs `true` as the shell tool would start it:
// directly (off), and under each backend in each sandboxed mode, and
// reports the median wall time of one command; the difference to off is
// the sandbox's cost per command. The Landlock rows re-execute a built
// companion (the release build, as it ships) as the helper. Rows skip
// where their backend cannot run.
func BenchmarkSandboxOverhead(b *testing.B) {
	root := b.TempDir()
	b.Run("off", func(b *testing.B) { benchCommand(b, &sandbox.Sandbox{Mode: sandbox.Off}, root) })
	var helper string
	for _, backend := range []sandbox.Backend{sandbox.Bwrap, sandbox.Landlock} {
		for _, mode := range []sandbox.Mode{sandbox.ReadOnly, sandbox.WorkspaceWrite} {
			if backend == sandbox.Landlock && helper == "" {
				helper = buildBinary(b, builds()[1]) // lives as long as b
			}
			b.Run(string(backend)+"/"+string(mode), func(b *testing.B) {
				benchCommand(b, &sandbox.Sandbox{Mode: mode, Force: backend, Helper: helper}, root)
			})
		}
	}
}

// benchCommand runs `true` wrapped by sb, b.N times, and reports the
// median.
func benchCommand(b *testing.B, sb *sandbox.Sandbox, root string) {
	if err := sb.Available(); sb.Active() && err != nil {
		b.Skip(err)
	}
	argv, err := sb.Wrap([]string{root}, []string{"true"})
	if err != nil {
		b.Fatal(err)
	}
	times := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		if out, err := exec.Command(argv[0], argv[1:]...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "ms-median-command")
}
