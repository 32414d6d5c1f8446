package builtin

import (
	"fmt"
	"slices"
	"testing"
)

func TestComparePathsIsWalkOrder(t *testing.T) {
	// The order a depth-first walk with sorted entries visits files in.
	walk := []string{"a/b", "a/c/d", "a-c", "a.go", "ab", "b/a/z", "b/a0", "c"}
	shuffled := []string{"c", "ab", "a-c", "b/a0", "a/c/d", "a.go", "b/a/z", "a/b"}
	slices.SortFunc(shuffled, comparePaths)
	if !slices.Equal(shuffled, walk) {
		t.Errorf("sorted = %q, want %q", shuffled, walk)
	}
}

func TestGrepTopKeepsFirstLinesInWalkOrder(t *testing.T) {
	file := func(path string, n int) []grepLine {
		var ls []grepLine
		for i := 1; i <= n; i++ {
			ls = append(ls, grepLine{abs: path, line: i})
		}
		return ls
	}
	top := &grepTop{k: 4}
	for _, f := range []struct {
		path string
		n    int
	}{{"z.go", 3}, {"m/x.go", 2}, {"q.go", 5}, {"a.go", 1}, {"zz.go", 9}, {"m/a.go", 1}} {
		top.add(f.path, file(f.path, f.n))
	}
	var got []string
	for _, l := range top.lines() {
		got = append(got, fmt.Sprintf("%s:%d", l.abs, l.line))
	}
	want := []string{"a.go:1", "m/a.go:1", "m/x.go:1", "m/x.go:2"}
	if !slices.Equal(got, want) {
		t.Errorf("lines = %q, want %q", got, want)
	}
	if len(top.files) > 3 {
		t.Errorf("kept %d files for 4 lines", len(top.files))
	}
}
