package bench

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// scaleTree is the shape of the synthetic tree: about as many files and
// folders as the Linux source tree, with nested ignore files, ignored build
// output, a few files over grep's 1 MiB limit and one folder of 5,000
// entries. Files are small so the tree is written in seconds.
var scaleShape = struct {
	top, mid, leaf, files int
}{top: 20, mid: 12, leaf: 20, files: 16} // 20×12×20 folders × 16 files ≈ 77k

// scaleBigDir is the folder holding 5,000 entries; scaleLog the 2 MiB
// log files.
const (
	scaleBigDir   = "include/generated"
	scaleBigCount = 5000
	scaleMatch    = "spin_lock_irqsave"
)

// makeScaleTree writes the synthetic tree under dir, several folders at
// a time (the writes are mostly system calls, which overlap).
func makeScaleTree(tb testing.TB, dir string) {
	tb.Helper()
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
		sem      = make(chan struct{}, 8)
	)
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		err := os.MkdirAll(filepath.Dir(p), 0o755)
		if err == nil {
			err = os.WriteFile(p, []byte(body), 0o644)
		}
		if err != nil {
			mu.Lock()
			firstErr = cmp.Or(firstErr, err)
			mu.Unlock()
		}
	}
	inParallel := func(fn func()) {
		sem <- struct{}{}
		wg.Go(func() { defer func() { <-sem }(); fn() })
	}
	write(".gitignore", "*.o\n*.ko\n.*.cmd\n/build/\nmodules.order\n!vmlinux.lds.S\n")
	exts := []string{".c", ".c", ".c", ".h", ".h", ".S", ".txt", ".rs", ".c", ".h", ".c", ".o", ".c", ".h", ".yaml", ".c"}
	for t := range scaleShape.top {
		for m := range scaleShape.mid {
			if m%3 == 0 {
				write(fmt.Sprintf("t%02d/m%02d/.gitignore", t, m), "*.gen\n!keep.gen\nout/\n")
			}
			for l := range scaleShape.leaf {
				inParallel(func() {
					leaf := fmt.Sprintf("t%02d/m%02d/l%02d", t, m, l)
					for f := range scaleShape.files {
						write(fmt.Sprintf("%s/f%02d%s", leaf, f, exts[f]), scaleSource(t, m, l, f))
					}
					if l%5 == 0 {
						write(leaf+"/out/x.gen", "generated\n") // ignored folder
					}
				})
			}
		}
	}
	for i := 0; i < scaleBigCount; i += 500 {
		inParallel(func() {
			for j := i; j < min(i+500, scaleBigCount); j++ {
				write(fmt.Sprintf("%s/entry%04d.h", scaleBigDir, j), "#define X 1\n")
			}
		})
	}
	wg.Wait()
	big := strings.Repeat("a log line that nobody needs to search through\n", 2<<20/48)
	for i := range 3 {
		write(fmt.Sprintf("logs/big%d.log", i), big)
	}
	write("build/vmlinux.o", "ignored\n")
	if firstErr != nil {
		tb.Fatal(firstErr)
	}
}

// scaleSource is a small C-like file; one in seven holds scaleMatch.
func scaleSource(t, m, l, f int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// t%d m%d l%d f%d\n#include <linux/kernel.h>\n\nstatic int probe(struct device *dev)\n{\n", t, m, l, f)
	for i := range 20 {
		fmt.Fprintf(&b, "\tint v%d = readl(base + %d);\n", i, i*4)
	}
	if (t+m+l+f)%7 == 0 {
		b.WriteString("\t" + scaleMatch + "(&lock, flags);\n")
	}
	b.WriteString("\treturn 0;\n}\n")
	return b.String()
}
