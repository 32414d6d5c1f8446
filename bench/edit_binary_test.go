package bench

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkEditThroughBinary measures checkpointed changes through the
// real binary: one `companion run --yolo` in the tree (COMPANION_BENCH_TREE,
// or a generated one) with a fresh state folder, whose scripted model asks
// for an edit of a file, a second edit of it, then a shell command. Each
// call is timed from the stream-json line announcing it to the line with
// its result; `git status --porcelain` runs right before each run. Reports
// the medians and their ratio to git status: the first edit of a session
// (checkpoint included), a later edit, and the first shell command (a
// snapshot of the whole tree).
func BenchmarkEditThroughBinary(b *testing.B) {
	tree := os.Getenv(treeEnv)
	if tree == "" {
		tree = generatedRepo(b)
	}
	bin := buildBinary(b, builds()[0])
	file := editTarget(b, tree)
	orig, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.WriteFile(file, orig, 0o644) })
	script := filepath.Join(b.TempDir(), "script.json")
	writeEditScript(b, script, file, string(orig))
	names := []string{"first-edit", "later-edit", "first-shell"}
	calls := make([][]time.Duration, len(names))
	var statuses []time.Duration
	for range b.N {
		os.WriteFile(file, orig, 0o644)
		statuses = append(statuses, gitStatus(b, tree))
		for i, d := range timedCalls(b, bin, script, tree, len(names)) {
			calls[i] = append(calls[i], d)
		}
	}
	b.StopTimer()
	status := median(statuses)
	b.ReportMetric(ms(status), "ms-git-status")
	for i, name := range names {
		d := median(calls[i])
		b.ReportMetric(ms(d), "ms-"+name)
		b.ReportMetric(float64(d)/float64(status), "x-status-"+name)
	}
}

// writeEditScript writes a script of two edits of file and a shell command.
func writeEditScript(b *testing.B, script, file, orig string) {
	call := func(name string, args map[string]any) map[string]any {
		return map[string]any{"chunks": []any{map[string]any{"functionCall": map[string]any{"name": name, "args": args}}}}
	}
	s := map[string]any{"turns": []any{
		call("write_file", map[string]any{"file_path": file, "content": orig + "\n# edit 1\n"}),
		call("write_file", map[string]any{"file_path": file, "content": orig + "\n# edit 2\n"}),
		call("run_shell_command", map[string]any{"command": "true"}),
		map[string]any{"chunks": []any{map[string]any{"text": "done"}}},
	}}
	data, err := json.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(script, data, 0o644); err != nil {
		b.Fatal(err)
	}
}

// timedCalls runs the script in tree with a fresh HOME and returns, for
// the first n tool calls, the time from the announcing line to the result.
func timedCalls(b *testing.B, bin, script, tree string, n int) []time.Duration {
	home := b.TempDir()
	cmd := exec.Command(bin, "run", "--script", script, "--yolo", "--output-format", "stream-json", "-p", "edit")
	cmd.Dir, cmd.Env = tree, []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var asked []time.Time
	var took []time.Duration
	var lines []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		lines = append(lines, line)
		switch {
		case strings.Contains(line, `"type":"tool_use"`):
			asked = append(asked, time.Now())
		case strings.Contains(line, `"type":"tool_result"`) && len(took) < len(asked):
			took = append(took, time.Since(asked[len(took)]))
		}
	}
	if err := cmd.Wait(); err != nil || len(took) < n || strings.Contains(strings.Join(lines, "\n"), `"is_error":true`) {
		b.Fatalf("run: %v, %d calls timed\n%s", err, len(took), strings.Join(lines, "\n"))
	}
	return took[:n]
}
