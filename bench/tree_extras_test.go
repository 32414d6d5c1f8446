package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/agent/memory"
	"companion/ide"
	"companion/internal/testkit/testio"
	"companion/tools/builtin"
)

// BenchmarkTreeExtras measures issue 27 item 6's other places where cost
// could follow the repository instead of the work, in the tree
// COMPANION_BENCH_LINUX names (the synthetic tree without it), each against
// a floor command run just before it: a 500 MB log read in pages by
// read_file (floor `wc -l`, the one pass read_file makes to count lines),
// the @-mention of a directory (floor `rg --files DIR`), loading the
// memory files for a session started deep in the tree, and the editor
// context with 500 of the tree's files open.
func BenchmarkTreeExtras(b *testing.B) {
	tree, leaf := os.Getenv("COMPANION_BENCH_LINUX"), "drivers/net/ethernet/intel/e1000"
	if tree == "" {
		tree, leaf = scaleTreeDir(b), "t03/m04/l05"
	}
	table := []string{"| work | companion | floor | ratio | peak RSS |", "|---|---|---|---|---|"}
	row := func(name string, m scaleResult) {
		table = append(table, fmt.Sprintf("| %s | %s | %s | %.2f× | %.0f MB |", name, fmtDur(m.call), fmtDur(m.floor), m.ratio(), m.peakMB))
	}
	b.Run("paged-read-500MB", func(b *testing.B) {
		log := bigLog(b)
		for _, off := range []int{0, 5_000_000, 9_999_000} {
			c := scaleCase{name: fmt.Sprintf("read_file offset %d", off), tool: "read_file",
				args: fmt.Sprintf(`{"file_path":%q,"offset":%d,"limit":1000}`, log, off), floor: []string{"wc", "-l", log}}
			row(c.name+" of a 500 MB log", measureScale(b, filepath.Dir(log), c, "-"))
		}
	})
	b.Run("mention-dir", func(b *testing.B) {
		for _, dir := range []string{leaf, filepath.Dir(leaf)} {
			m := measureFunc(b, tree, []string{"rg", "--files", dir}, func() {
				if _, _, err := builtin.ReadForPrompt(context.Background(), scaleEnv(b, tree), dir); err != nil {
					b.Fatal(err)
				}
			})
			row("@"+dir, m)
		}
	})
	b.Run("memory", func(b *testing.B) {
		m := measureFunc(b, tree, []string{"ls", leaf}, func() {
			if _, err := memory.Load(context.Background(), memory.Options{}, "", filepath.Join(tree, leaf)); err != nil {
				b.Fatal(err)
			}
		})
		row("memory files for a session in "+leaf, m)
	})
	b.Run("ide-500", func(b *testing.B) {
		files := openFiles(tree)
		m := measureFunc(b, tree, []string{"ls", leaf}, func() { ideContextOnce(b, files) })
		row("IDE context, 500 of the tree's files open: update + full render", m)
	})
	b.Log("\n" + strings.Join(table, "\n"))
}

// measureFunc times fn against the floor command, back to back, as
// measureScale does for a tool call.
func measureFunc(b *testing.B, dir string, floor []string, fn func()) scaleResult {
	var calls, floors []time.Duration
	peak := 0.0
	for range max(b.N, scaleRuns()) {
		floors = append(floors, timeFloor(b, dir, floor))
		testio.ResetPeakRSS()
		t0 := time.Now()
		fn()
		calls = append(calls, time.Since(t0))
		peak = max(peak, float64(testio.PeakRSS())/(1<<20))
	}
	r := scaleResult{call: median(calls), floor: median(floors), peakMB: peak}
	b.ReportMetric(float64(r.call.Microseconds())/1000, "ms/call")
	b.ReportMetric(r.ratio(), "x-floor")
	return r
}

// openFiles lists 500 of the tree's C files as open in an editor, the
// newest active with the cursor on line 100.
func openFiles(tree string) []ide.OpenFile {
	var files []ide.OpenFile
	_ = filepath.WalkDir(tree, func(p string, d os.DirEntry, err error) error {
		if err != nil || len(files) == 500 {
			return filepath.SkipAll
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".c") {
			files = append(files, ide.OpenFile{URI: ide.URIFromPath(p), Timestamp: int64(len(files))})
		}
		return nil
	})
	last := len(files) - 1
	files[last].IsActive, files[last].Cursor = true, &ide.Position{Line: 100}
	return files
}

// ideContextOnce feeds a tracker the open files and renders the full
// context.
func ideContextOnce(b *testing.B, files []ide.OpenFile) {
	t := ide.NewTracker(func(_ context.Context, p string) (string, error) {
		data, err := os.ReadFile(p)
		return string(data), err
	})
	t.Update(ide.Context{OpenFiles: files})
	if t.Render(context.Background(), true) == "" {
		b.Fatal("empty context")
	}
}

// bigLog writes a 500 MB log of 10 million lines once per run.
func bigLog(b *testing.B) string {
	p := filepath.Join(b.TempDir(), "big.log")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	line := strings.Repeat("x", 38)
	var buf strings.Builder
	for i := range 10_000_000 {
		fmt.Fprintf(&buf, "%010d %s\n", i, line) // 50 bytes
		if buf.Len() > 1<<20 {
			if _, err := f.WriteString(buf.String()); err != nil {
				b.Fatal(err)
			}
			buf.Reset()
		}
	}
	if _, err := f.WriteString(buf.String()); err != nil {
		b.Fatal(err)
	}
	return p
}
