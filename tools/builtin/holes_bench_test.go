package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"companion/tools"

	"companion/internal/testkit/testio"
)

// heapObjects is the runtime metric peakHeap samples: bytes in heap
// objects, live or not yet swept, so an upper bound of what is held.
const heapObjects = "/memory/classes/heap/objects:bytes"

// peakHeap runs f while sampling the heap and returns the most it held
// above what it held before f.
func peakHeap(f func()) uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: heapObjects}}
	metrics.Read(s)
	base := s[0].Value.Uint64()
	var peak atomic.Uint64
	peak.Store(base)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		s := []metrics.Sample{{Name: heapObjects}}
		t := time.NewTicker(50 * time.Microsecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak.Load() - base
}

// benchEnv is a session root with its Env, for benchmarks.
func benchEnv(b *testing.B) (string, *tools.Env) {
	b.Helper()
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	roots, err := tools.NewRoots(root)
	if err != nil {
		b.Fatal(err)
	}
	return root, &tools.Env{Roots: roots, Log: slog.New(slog.DiscardHandler)}
}

// runTool prepares, confirms and executes one call.
func runTool(b *testing.B, tool tools.Tool, env *tools.Env, args []byte) *tools.Result {
	b.Helper()
	inv, err := tool.Prepare(env, args)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := inv.Confirmation(ctx); err != nil {
		b.Fatal(err)
	}
	res, err := inv.Execute(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	return res
}

// BenchmarkReadFileHuge reads one line of a 2 GiB file (sparse: all NUL
// bytes, so binary) and of a 2 GiB-long text file cut to lines, reporting
// the peak heap and peak RSS of the call. Issue 14 wants both under 50 MB.
func BenchmarkReadFileHuge(b *testing.B) {
	for _, tc := range []struct{ name, head string }{
		{"binary", ""},
		{"text-head", strings.Repeat("a line of text\n", 1000)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			root, env := benchEnv(b)
			path := filepath.Join(root, "huge.dat")
			if err := os.WriteFile(path, []byte(tc.head), 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.Truncate(path, 2<<30); err != nil {
				b.Skip("cannot make a sparse file:", err)
			}
			tool := newReadFile(ReadOnlyOptions{}.withDefaults())
			args := []byte(`{"file_path":"huge.dat","limit":1}`)
			var heap, rss uint64
			rssOK := testio.ResetPeakRSS()
			b.ResetTimer()
			for b.Loop() {
				heap = max(heap, peakHeap(func() { runTool(b, tool, env, args) }))
			}
			if rssOK {
				rss = testio.PeakRSS()
			}
			b.ReportMetric(float64(heap)/(1<<20), "peak-heap-MB")
			b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
		})
	}
}

// bigText returns about n bytes of numbered text lines.
func bigText(n int) string {
	var buf bytes.Buffer
	buf.Grow(n + 100)
	for i := 0; buf.Len() < n; i++ {
		buf.WriteString("line ")
		buf.WriteString(strconv.Itoa(i))
		buf.WriteString(" of a big file written by write_file in one call\n")
	}
	return buf.String()
}

// BenchmarkWriteFile100MB writes 100 MB with write_file (Prepare from the
// JSON arguments, Confirmation, Execute) as a new file and over an old
// one of 10 MB (half the editing limit), reporting the peak heap (sampled) and the bytes
// allocated, each as a multiple of the content. Issue 14 wants at most 3x.
func BenchmarkWriteFile100MB(b *testing.B) {
	const size = 100 << 20
	content := bigText(size)
	args, err := json.Marshal(map[string]string{"file_path": "big.txt", "content": content})
	if err != nil {
		b.Fatal(err)
	}
	for _, overwrite := range []bool{false, true} {
		name := "new"
		if overwrite {
			name = "overwrite"
		}
		b.Run(name, func(b *testing.B) {
			root, env := benchEnv(b)
			path := filepath.Join(root, "big.txt")
			tool := newWriteFile(EditOptions{}.withDefaults())
			var heap, alloc uint64
			for b.Loop() {
				b.StopTimer()
				_ = os.Remove(path)
				if overwrite {
					old := strings.Replace(content[:10<<20], "line 1 ", "LINE 1 ", 1)
					if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
						b.Fatal(err)
					}
				}
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				b.StartTimer()
				heap = max(heap, peakHeap(func() {
					if res := runTool(b, tool, env, args); res.IsError {
						b.Fatal(res.Text)
					}
				}))
				runtime.ReadMemStats(&after)
				alloc = max(alloc, after.TotalAlloc-before.TotalAlloc)
			}
			b.ReportMetric(float64(heap)/size, "peak-heap-x")
			b.ReportMetric(float64(alloc)/size, "alloc-x")
		})
	}
}

// BenchmarkRootOverhead compares a confined file operation (through
// os.Root, one folder at a time from the root) with the plain os call on
// the same file, four folders below the root.
func BenchmarkRootOverhead(b *testing.B) {
	root, env := benchEnv(b)
	dir := filepath.Join(root, "a", "b", "c", "d")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(path, []byte("hello\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		op   func() error
	}{
		{"stat/os", func() error { _, err := os.Stat(path); return err }},
		{"stat/root", func() error { _, err := tools.StatLocal(env.Roots, path); return err }},
		{"read/os", func() error { _, err := os.ReadFile(path); return err }},
		{"read/root", func() error { _, err := tools.ReadLocal(env.Roots, path, -1); return err }},
		{"list/os", func() error { _, err := os.ReadDir(dir); return err }},
		{"list/root", func() error { _, err := tools.ReadDirLocal(env.Roots, dir); return err }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.op(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
