package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"companion/tools"
	"companion/tools/builtin"

	"companion/internal/testkit/testio"
)

// scaleCase is one tool call measured against the command that is its floor.
type scaleCase struct {
	name, tool, args string
	// floor is the command run in the tree before each call, timed alike.
	floor []string
}

// scaleCases are the calls of issue 27's table, on a tree where pick
// names the folders they aim at.
func scaleCases(leafDir, bigDir string) []scaleCase {
	noMatch := "companion_no_such_symbol_xyzzy"
	return []scaleCase{
		{"glob", "glob", `{"pattern":"**/*.rs"}`, []string{"rg", "--files", "-g", "**/*.rs"}},
		{"grep", "grep", `{"pattern":"spin_lock_irqsave","include":"*.c"}`,
			[]string{"rg", "-n", "spin_lock_irqsave", "-g", "*.c"}},
		{"grep-nomatch", "grep", fmt.Sprintf(`{"pattern":%q}`, noMatch), []string{"rg", "-n", noMatch}},
		{"read_many_files", "read_many_files", fmt.Sprintf(`{"paths":[%q]}`, leafDir+"/*.c"),
			[]string{"rg", "--files", "-g", leafDir + "/*.c"}},
		{"list_directory", "list_directory", fmt.Sprintf(`{"dir_path":%q}`, bigDir), []string{"ls", "-f", bigDir}},
	}
}

// BenchmarkScale runs issue 27's searches on a synthetic tree of the Linux
// tree's shape (about 80k files), with ripgrep and with the Go engine, and
// reports each call's median time, its floor's and their ratio, and the
// process's peak resident memory during the calls.
func BenchmarkScale(b *testing.B) {
	dir := scaleTreeDir(b)
	runScale(b, dir, scaleCases("t03/m04/l05", scaleBigDir))
}

// BenchmarkScaleLinux runs the same calls in the Linux source tree that
// `make bench-linux` prepares (COMPANION_BENCH_LINUX names it) and logs
// the table the benchmark README keeps.
func BenchmarkScaleLinux(b *testing.B) {
	dir := os.Getenv("COMPANION_BENCH_LINUX")
	if dir == "" {
		b.Skip("COMPANION_BENCH_LINUX is not set; run make bench-linux")
	}
	runScale(b, dir, scaleCases("drivers/net/ethernet/intel/e1000", "include/linux"))
}

// runScale measures every case with each engine and logs a table.
func runScale(b *testing.B, dir string, cases []scaleCase) {
	table := []string{"| call | engine | companion | floor | ratio | peak RSS |", "|---|---|---|---|---|---|"}
	for _, c := range cases {
		for _, engine := range scaleEngines() {
			b.Run(c.name+"/"+engine.name, func(b *testing.B) {
				m := measureScale(b, dir, c, engine.rg)
				table = append(table, fmt.Sprintf("| %s | %s | %s | %s | %.2f× | %.0f MB |", c.name, engine.name,
					fmtDur(m.call), fmtDur(m.floor), m.ratio(), m.peakMB))
			})
		}
	}
	for _, engine := range scaleEngines() {
		b.Run("cancel/"+engine.name, func(b *testing.B) {
			d := measureCancel(b, dir, engine.rg, cases[2].args)
			table = append(table, fmt.Sprintf("| grep cancelled after 200 ms | %s | returned %.0f ms after the cancel | | | |",
				engine.name, float64(d.Microseconds())/1000))
		})
	}
	b.Log("\n" + strings.Join(table, "\n"))
}

// measureCancel starts a whole-tree grep, cancels it after 200 ms and
// reports how long the call took to return after the cancel (median).
func measureCancel(b *testing.B, dir, rg, args string) time.Duration {
	env := scaleEnv(b, dir)
	tool := scaleTool(b, "grep", rg)
	var ds []time.Duration
	for range max(b.N, scaleRuns()) {
		ctx, cancel := context.WithCancel(context.Background())
		cancelled := make(chan time.Time, 1)
		timer := time.AfterFunc(200*time.Millisecond, func() { cancelled <- time.Now(); cancel() })
		runToolCtx(b, ctx, tool, env, args)
		end := time.Now()
		if !timer.Stop() {
			ds = append(ds, end.Sub(<-cancelled))
		}
		cancel()
	}
	if len(ds) == 0 {
		return 0
	}
	d := median(ds)
	b.ReportMetric(float64(d.Microseconds())/1000, "ms-after-cancel")
	return d
}

// scaleEngine is a grep/glob engine choice: rg's path, or "-" for Go.
type scaleEngine struct{ name, rg string }

func scaleEngines() []scaleEngine {
	engines := []scaleEngine{{"go", "-"}}
	if rg, err := exec.LookPath("rg"); err == nil {
		engines = append([]scaleEngine{{"ripgrep", rg}}, engines...)
	}
	return engines
}

// scaleResult is one case's medians.
type scaleResult struct {
	call, floor time.Duration
	peakMB      float64
}

func (r scaleResult) ratio() float64 {
	if r.floor == 0 {
		return 0
	}
	return float64(r.call) / float64(r.floor)
}

// scaleRuns is the fewest runs a median is taken of: three, or
// COMPANION_BENCH_RUNS (CI's quick pass sets 1).
func scaleRuns() int {
	if n, err := strconv.Atoi(os.Getenv("COMPANION_BENCH_RUNS")); err == nil && n > 0 {
		return n
	}
	return 3
}

// measureScale runs the floor and the call back to back b.N times (at
// least scaleRuns) and reports their medians.
func measureScale(b *testing.B, dir string, c scaleCase, rg string) scaleResult {
	env := scaleEnv(b, dir)
	tool := scaleTool(b, c.tool, rg)
	var calls, floors []time.Duration
	peak := 0.0
	n := max(b.N, scaleRuns())
	for range n {
		floors = append(floors, timeFloor(b, dir, c.floor))
		testio.ResetPeakRSS()
		t0 := time.Now()
		res := runTool(b, tool, env, c.args)
		calls = append(calls, time.Since(t0))
		peak = max(peak, float64(testio.PeakRSS())/(1<<20))
		if res.IsError {
			b.Fatalf("%s: %s", c.name, res.Text)
		}
	}
	r := scaleResult{call: median(calls), floor: median(floors), peakMB: peak}
	b.ReportMetric(float64(r.call.Microseconds())/1000, "ms/call")
	b.ReportMetric(float64(r.floor.Microseconds())/1000, "floor-ms")
	b.ReportMetric(r.ratio(), "x-floor")
	b.ReportMetric(peak, "MB-peak-rss")
	return r
}

// scaleEnv is a tool environment rooted at dir.
func scaleEnv(b *testing.B, dir string) *tools.Env {
	roots, err := tools.NewRoots(dir)
	if err != nil {
		b.Fatal(err)
	}
	return &tools.Env{Roots: roots, Log: slog.New(slog.DiscardHandler)}
}

// scaleTool builds one built-in tool using rg ("-": the Go engine).
func scaleTool(b *testing.B, name, rg string) tools.Tool {
	ro := builtin.ReadOnlyOptions{RipgrepPath: rg}
	reg := tools.NewRegistry(append(builtin.ReadOnly(ro), builtin.Extras(builtin.ExtraOptions{Read: ro})...)...)
	t, ok := reg.Get(name)
	if !ok {
		b.Fatalf("no tool %q", name)
	}
	return t
}

// runTool prepares and runs one call.
func runTool(b *testing.B, tool tools.Tool, env *tools.Env, args string) *tools.Result {
	return runToolCtx(b, context.Background(), tool, env, args)
}

func runToolCtx(b *testing.B, ctx context.Context, tool tools.Tool, env *tools.Env, args string) *tools.Result {
	inv, err := tool.Prepare(env, json.RawMessage(args))
	if err != nil {
		b.Fatalf("%s(%s): %v", tool.Name(), args, err)
	}
	res, err := inv.Execute(ctx, nil)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		b.Fatalf("%s(%s): %v", tool.Name(), args, err)
	}
	return res
}

// timeFloor runs the floor command in dir; 0 when it is not installed.
func timeFloor(b *testing.B, dir string, argv []string) time.Duration {
	if _, err := exec.LookPath(argv[0]); err != nil {
		return 0
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	t0 := time.Now()
	err := cmd.Run()
	d := time.Since(t0)
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		b.Fatalf("%v: %v", argv, err)
	}
	return d
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func fmtDur(d time.Duration) string {
	if d == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// gitCommit makes dir a git repository with everything committed, as the
// Linux tree is.
func gitCommit(b *testing.B, dir string) {
	git, err := exec.LookPath("git")
	if err != nil {
		return
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"},
		{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "tree"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
}
