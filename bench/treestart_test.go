package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkRunInTree measures what a session costs to start in a large
// tree: a whole `companion run -p …` (session start with the memory files,
// the top-of-tree listing and the git branch in the prompt, then one
// answer from a scripted model) in the tree (COMPANION_BENCH_TREE, or a
// generated one) and, alternately, in an empty folder. The difference of
// the medians is the cost that follows the tree; `git status --porcelain`
// is timed alongside for scale.
func BenchmarkRunInTree(b *testing.B) {
	tree := os.Getenv(treeEnv)
	if tree == "" {
		tree = generatedRepo(b)
	}
	bin := buildBinary(b, builds()[0])
	empty := b.TempDir()
	script := filepath.Join(b.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"turns":[],"fallback":"echo"}`), 0o644); err != nil {
		b.Fatal(err)
	}
	var inTree, inEmpty, statuses []time.Duration
	for range b.N {
		inEmpty = append(inEmpty, runOnce(b, bin, script, empty))
		inTree = append(inTree, runOnce(b, bin, script, tree))
		statuses = append(statuses, gitStatus(b, tree))
	}
	b.StopTimer()
	t, e := median(inTree), median(inEmpty)
	b.ReportMetric(ms(t), "ms-run-in-tree")
	b.ReportMetric(ms(e), "ms-run-in-empty")
	b.ReportMetric(ms(t-e), "ms-tree-extra")
	b.ReportMetric(ms(median(statuses)), "ms-git-status")
}

// runOnce times one headless run in dir with a fresh HOME.
func runOnce(b *testing.B, bin, script, dir string) time.Duration {
	cmd := exec.Command(bin, "run", "--script", script, "-p", "hello")
	cmd.Dir, cmd.Env = dir, []string{"HOME=" + b.TempDir(), "PATH=" + os.Getenv("PATH")}
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil || !strings.Contains(string(out), "hello") {
		b.Fatalf("run in %s: %v, stdout %q", dir, err, out)
	}
	return d
}
