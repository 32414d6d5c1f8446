package bench

import (
	"bufio"
	"bytes"
	"cmp"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkInit measures the package initialisers that run before main,
// the cost the start-up guard bounds (package init ≤ 10 ms): each
// iteration runs `companion --version` under GODEBUG=inittrace=1 and sums
// the clock time of every package's init. It reports the median and the
// 90th percentile of that sum for the development and the release build,
// and logs the packages whose init costs most at the median, so that a
// library that adds to it is named.
func BenchmarkInit(b *testing.B) {
	forEachBuild(b, func(b *testing.B, bin string) {
		home := b.TempDir()
		var sums []float64
		perPkg := map[string][]float64{}
		b.ResetTimer()
		for range b.N {
			inits := initTrace(b, bin, home)
			var sum float64
			for pkg, ms := range inits {
				sum += ms
				perPkg[pkg] = append(perPkg[pkg], ms)
			}
			sums = append(sums, sum)
		}
		b.StopTimer()
		slices.Sort(sums)
		b.ReportMetric(sums[len(sums)/2], "ms-median-init")
		b.ReportMetric(sums[len(sums)*9/10], "ms-p90-init")
		for _, top := range costliest(perPkg, b.N, 5) {
			b.Logf("%-60s %6.2f ms median", top.pkg, top.ms)
		}
	})
}

// initTrace runs bin --version once with the runtime's init trace on, in
// an empty home, and returns each package's init clock time in
// milliseconds.
func initTrace(b *testing.B, bin, home string) map[string]float64 {
	cmd := exec.Command(bin, "--version")
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GODEBUG=inittrace=1"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s --version: %v\n%s", bin, err, stderr.Bytes())
	}
	inits := parseInitTrace(stderr.Bytes())
	if len(inits) == 0 {
		b.Fatalf("no init trace in:\n%s", stderr.Bytes())
	}
	return inits
}

// parseInitTrace reads the runtime's lines of the form
// "init PKG @0.5 ms, 0.012 ms clock, 96 bytes, 2 allocs".
func parseInitTrace(trace []byte) map[string]float64 {
	inits := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(trace))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		if ms, err := strconv.ParseFloat(f[4], 64); err == nil {
			inits[f[1]] += ms
		}
	}
	return inits
}

// pkgCost is one package's median init time.
type pkgCost struct {
	pkg string
	ms  float64
}

// costliest returns the n packages with the highest median init over runs
// runs (a package absent from a run counts 0 there).
func costliest(perPkg map[string][]float64, runs, n int) []pkgCost {
	var costs []pkgCost
	for pkg, ms := range perPkg {
		ms = append(slices.Clone(ms), make([]float64, max(runs-len(ms), 0))...)
		slices.Sort(ms)
		costs = append(costs, pkgCost{pkg, ms[len(ms)/2]})
	}
	slices.SortFunc(costs, func(a, b pkgCost) int { return cmp.Compare(b.ms, a.ms) })
	return costs[:min(n, len(costs))]
}

func TestParseInitTrace(t *testing.T) {
	trace := "init internal/bytealg @0.006 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"init runtime @0.050 ms, 0.12 ms clock, 0 bytes, 0 allocs\n" +
		"companion 0.1.0-dev\n" +
		"init github.com/santhosh-tekuri/jsonschema/v6 @11 ms, 5.6 ms clock, 1700848 bytes, 21283 allocs\n" +
		"init broken @1 ms\n"
	got := parseInitTrace([]byte(trace))
	want := map[string]float64{"internal/bytealg": 0, "runtime": 0.12, "github.com/santhosh-tekuri/jsonschema/v6": 5.6}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for pkg, ms := range want {
		if got[pkg] != ms {
			t.Errorf("%s: got %v ms, want %v", pkg, got[pkg], ms)
		}
	}
}

func TestCostliest(t *testing.T) {
	perPkg := map[string][]float64{"a": {1, 2, 3}, "b": {5, 5, 5}, "c": {9}}
	got := costliest(perPkg, 3, 2)
	want := []pkgCost{{"b", 5}, {"a", 2}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v (c ran once: its median over 3 runs is 0)", got, want)
	}
}
