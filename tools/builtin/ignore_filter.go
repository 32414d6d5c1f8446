package builtin

import "strings"

// ignoreFilter checks listed file paths (relative to a start directory
// below the root) against an ignore tree, remembering each directory's
// verdict so a directory is judged once however many files it holds.
type ignoreFilter struct {
	tree *ignoreTree
	// start is the start directory's components relative to the root.
	start []string
	// dirs maps a directory (slash path relative to start) to whether it
	// or a directory above it is ignored.
	dirs map[string]bool
}

// newIgnoreFilter returns a filter for paths below start; a nil tree
// ignores nothing.
func newIgnoreFilter(tree *ignoreTree, start []string) *ignoreFilter {
	return &ignoreFilter{tree: tree, start: start, dirs: map[string]bool{}}
}

// ignored reports whether the file rel (components relative to start) is
// ignored, itself or through a directory above it up to the root.
func (f *ignoreFilter) ignored(rel []string) bool {
	if f.tree == nil {
		return false
	}
	if f.dirIgnored(rel[:len(rel)-1]) {
		return true
	}
	full := f.full(rel)
	return f.tree.rules(full[:len(full)-1]).match(full, false)
}

// dirIgnored reports whether directory dir (relative to start) is ignored.
func (f *ignoreFilter) dirIgnored(dir []string) bool {
	key := strings.Join(dir, "/")
	if v, ok := f.dirs[key]; ok {
		return v
	}
	var v bool
	if len(dir) == 0 {
		v = f.tree.ignored(f.start, true)
	} else {
		v = f.dirIgnored(dir[:len(dir)-1])
		if !v {
			full := f.full(dir)
			v = f.tree.rules(full[:len(full)-1]).match(full, true)
		}
	}
	f.dirs[key] = v
	return v
}

// full prefixes rel with the start's components.
func (f *ignoreFilter) full(rel []string) []string {
	return append(f.start[:len(f.start):len(f.start)], rel...)
}
