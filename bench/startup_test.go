package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkStartup measures spawn → initialize answer of the real binary
// (built without the race detector), and its resident memory after
// session/new, for the development build (`make build`) and the release
// build (`make release`). It reports the median start-up and the median
// RSS.
func BenchmarkStartup(b *testing.B) {
	forEachBuild(b, func(b *testing.B, bin string) {
		ws := b.TempDir()
		var starts []time.Duration
		var rss []float64
		b.ResetTimer()
		for range b.N {
			d, kb := startOnce(b, bin, ws)
			starts = append(starts, d)
			rss = append(rss, kb)
		}
		b.StopTimer()
		slices.Sort(starts)
		slices.Sort(rss)
		b.ReportMetric(float64(starts[len(starts)/2].Microseconds())/1e3, "ms-median-initialize")
		b.ReportMetric(rss[len(rss)/2]/1024, "MB-median-rss")
	})
}

// BenchmarkRun measures a whole headless run of the real binary:
// `companion run -p …` from spawn to exit, on a scripted model that
// answers at once (the demo script waits between chunks on purpose), so
// the time is companion's own. It reports the median.
func BenchmarkRun(b *testing.B) {
	bin := buildBinary(b, builds()[0])
	ws := b.TempDir()
	script := filepath.Join(ws, "script.json")
	if err := os.WriteFile(script, []byte(`{"turns":[],"fallback":"echo"}`), 0o644); err != nil {
		b.Fatal(err)
	}
	var runs []time.Duration
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(bin, "run", "--script", script, "-p", "hello")
		cmd.Dir, cmd.Env = ws, []string{"HOME=" + ws, "PATH=" + os.Getenv("PATH")}
		start := time.Now()
		out, err := cmd.Output()
		runs = append(runs, time.Since(start))
		if err != nil || !strings.Contains(string(out), "hello") {
			b.Fatalf("run: %v, stdout %q", err, out)
		}
	}
	b.StopTimer()
	slices.Sort(runs)
	b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1e3, "ms-median-run")
}

// build is a way to build the binary: its name in benchmark output, the
// flags given to go build and extra environment for it.
type build struct {
	name  string
	flags []string
	env   []string
}

// builds are the development build (`make build`) and the release build;
// the release build is `make release`: RELEASE_FLAGS and CGO_ENABLED=0.
func builds() []build {
	return []build{
		{name: "dev"},
		{name: "release", flags: []string{"-trimpath", "-tags=grpcnotrace", "-ldflags=-s -w"}, env: []string{"CGO_ENABLED=0"}},
	}
}

// forEachBuild runs run as a sub-benchmark for each of builds(), with
// the binary built that way.
func forEachBuild(b *testing.B, run func(b *testing.B, bin string)) {
	for _, build := range builds() {
		b.Run(build.name, func(b *testing.B) { run(b, buildBinary(b, build)) })
	}
}

// buildBinary builds companion as bd says, without the race detector,
// into a temporary folder.
func buildBinary(b *testing.B, bd build) string {
	bin := filepath.Join(b.TempDir(), "companion")
	args := append([]string{"build", "-o", bin}, bd.flags...)
	cmd := exec.Command("go", append(args, "companion/cmd/companion")...)
	cmd.Env = append(os.Environ(), bd.env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

func startOnce(b *testing.B, bin, ws string) (time.Duration, float64) {
	cmd := exec.Command(bin, "acp", "--demo")
	cmd.Env = []string{"HOME=" + ws, "PATH=" + os.Getenv("PATH")}
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	sc := bufio.NewScanner(stdout)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}`+"\n")
	if !sc.Scan() {
		b.Fatal("no initialize answer")
	}
	d := time.Since(start)
	fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":%q,"mcpServers":[]}}`+"\n", ws)
	for sc.Scan() && !strings.Contains(sc.Text(), `"id":1`) {
	}
	kb := rssKB(cmd.Process.Pid)
	stdin.Close()
	cmd.Wait()
	return d, kb
}

// rssKB reads VmRSS of pid from /proc, in KiB (0 where /proc is missing).
func rssKB(pid int) float64 { return statusKB(pid, "VmRSS:") }

// statusKB reads the field (with its colon) of pid's /proc status, in KiB
// (0 where /proc is missing).
func statusKB(pid int, field string) float64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field); ok {
			n, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return n
		}
	}
	return 0
}
