package builtin

import "slices"

// grepTop keeps the first k matching lines in walk order (files by path,
// component by component; lines in file order) out of files offered in
// any order, holding about k lines however many files match.
type grepTop struct {
	k int
	// files are the kept files in walk order; total counts their lines.
	files []topFile
	total int
}

type topFile struct {
	path  string
	lines []grepLine
}

// wants reports whether lines of path could still be kept.
func (t *grepTop) wants(path string) bool {
	return t.total < t.k || comparePaths(path, t.files[len(t.files)-1].path) < 0
}

// add offers one file's matching lines (in line order).
func (t *grepTop) add(path string, lines []grepLine) {
	if !t.wants(path) {
		return
	}
	i, _ := slices.BinarySearchFunc(t.files, path, func(f topFile, p string) int { return comparePaths(f.path, p) })
	t.files = slices.Insert(t.files, i, topFile{path: path, lines: lines})
	t.total += len(lines)
	for n := len(t.files); n > 1 && t.total-len(t.files[n-1].lines) >= t.k; n = len(t.files) {
		t.total -= len(t.files[n-1].lines)
		t.files = t.files[:n-1]
	}
}

// lines returns the kept lines in walk order, at most k of them.
func (t *grepTop) lines() []grepLine {
	var out []grepLine
	for _, f := range t.files {
		out = append(out, f.lines...)
	}
	return out[:min(len(out), t.k)]
}

// comparePaths orders slash paths as a depth-first walk with sorted
// directory entries visits them: component by component.
func comparePaths(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		ca, cb := a[i], b[i]
		if ca == cb {
			continue
		}
		switch {
		case ca == '/':
			return -1
		case cb == '/':
			return 1
		case ca < cb:
			return -1
		}
		return 1
	}
	return len(a) - len(b)
}
