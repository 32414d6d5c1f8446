package checkpoint

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"path"
	"slices"
	"strings"
)

// emptyTree is the id of the tree with no entries, which every git
// repository knows without storing it.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// modeTree is a directory's mode in a raw tree, as git writes it.
const modeTree = "40000"

// dirTree is one directory of a tree: its id ("" when the tree does not
// hold it as a directory) and entries by name.
type dirTree struct {
	id      string
	entries map[string]treeEntry
}

// editTree returns the tree of base (a tree or a commit) with edits
// applied: a change with a mode puts that file, symlink or gitlink at its
// path, replacing whatever was there (a directory too); one without
// removes the file at its path (never a directory). Directories left
// empty disappear, as in every git tree. Only the directories above the
// edited paths are read (one `git cat-file --batch`) and those that
// change are written (one `git mktree --batch`): the cost follows the
// edits, not the size of the tree, and no index is read or written.
// added are the paths of edits that put a file where base had none.
func (b *gitBackend) editTree(ctx context.Context, base string, edits []change) (tree string, added []string, err error) {
	if len(edits) == 0 {
		return base + "^{tree}", nil, nil
	}
	for _, e := range edits {
		if !treePath(e.path) {
			return "", nil, fmt.Errorf("checkpoint: cannot edit a tree at %q", e.path)
		}
	}
	dirs := editedDirs(edits)
	old, err := b.readDirs(ctx, base, dirs)
	if err != nil {
		return "", nil, err
	}
	byDir, children := map[string][]change{}, map[string][]string{}
	for _, e := range edits {
		byDir[path.Dir(e.path)] = append(byDir[path.Dir(e.path)], e)
	}
	for _, dir := range dirs[1:] {
		children[path.Dir(dir)] = append(children[path.Dir(dir)], dir)
	}
	w := &treeWriter{r: &b.r, ctx: ctx}
	defer w.close()
	// Deepest first, so that a directory's subdirectories are written
	// before it.
	slices.SortStableFunc(dirs, func(x, y string) int { return depth(y) - depth(x) })
	ids := map[string]string{} // directory → its new tree id, "" when empty
	for _, dir := range dirs {
		d := old[dir]
		changed, set, add := applyFiles(d.entries, byDir[dir])
		added = append(added, add...)
		for _, sub := range children[dir] {
			name := path.Base(sub)
			had, ok := d.entries[name]
			switch {
			case set[name]: // a file put here replaces the directory
			case ids[sub] == "" && ok && had.mode == modeTree:
				delete(d.entries, name)
				changed = true
			case ids[sub] != "" && (!ok || had.mode != modeTree || had.blob != ids[sub]):
				d.entries[name] = treeEntry{mode: modeTree, blob: ids[sub]}
				changed = true
			}
		}
		switch {
		case len(d.entries) == 0:
			ids[dir] = ""
		case !changed && d.id != "":
			ids[dir] = d.id
		default:
			if ids[dir], err = w.write(d.entries); err != nil {
				return "", nil, err
			}
		}
	}
	if ids["."] == "" {
		return emptyTree, added, w.close()
	}
	return ids["."], added, w.close()
}

// applyFiles applies the edits of files directly in one directory to its
// entries. It reports whether anything changed, the names a file was put
// at, and the paths put where there was no file before.
func applyFiles(entries map[string]treeEntry, edits []change) (changed bool, set map[string]bool, added []string) {
	set = map[string]bool{}
	for _, e := range edits {
		name := path.Base(e.path)
		had, ok := entries[name]
		if e.mode == "" {
			if ok && had.mode != modeTree {
				delete(entries, name)
				changed = true
			}
			continue
		}
		set[name] = true
		if !ok || had.mode == modeTree {
			added = append(added, e.path)
		}
		if want := (treeEntry{mode: e.mode, blob: e.blob}); !ok || had != want {
			entries[name] = want
			changed = true
		}
	}
	return changed, set, added
}

// treePath reports whether p can name a file of a tree: a clean relative
// slash path below the root.
func treePath(p string) bool {
	return p != "" && p != "." && path.Clean(p) == p && !path.IsAbs(p) && p != ".." &&
		!strings.HasPrefix(p, "../") && !strings.Contains(p, "\x00")
}

// editedDirs lists "." and then every directory above an edited path.
func editedDirs(edits []change) []string {
	seen := map[string]bool{".": true}
	dirs := []string{"."}
	for _, e := range edits {
		for dir := path.Dir(e.path); !seen[dir]; dir = path.Dir(dir) {
			seen[dir] = true
			dirs = append(dirs, dir)
		}
	}
	return dirs
}

// depth is the number of names in a directory path ("." has none).
func depth(dir string) int {
	if dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// readDirs reads base's directories dirs; one base does not hold as a
// directory has no id and no entries. cat-file takes names a line each, so
// a directory with a newline in its path is read by its tree id, found in
// its parent once that is read.
func (b *gitBackend) readDirs(ctx context.Context, base string, dirs []string) (map[string]dirTree, error) {
	var byPath, byID []string
	for _, dir := range dirs {
		if strings.Contains(dir, "\n") {
			byID = append(byID, dir)
		} else {
			byPath = append(byPath, dir)
		}
	}
	names := make([]string, len(byPath))
	for i, dir := range byPath {
		names[i] = base + "^{tree}"
		if dir != "." {
			names[i] = base + ":" + dir
		}
	}
	out := map[string]dirTree{}
	if err := b.readTrees(ctx, names, byPath, out); err != nil {
		return nil, err
	}
	slices.SortStableFunc(byID, func(x, y string) int { return depth(x) - depth(y) })
	for _, dir := range byID {
		had, ok := out[path.Dir(dir)].entries[path.Base(dir)]
		if !ok || had.mode != modeTree {
			out[dir] = dirTree{entries: map[string]treeEntry{}}
			continue
		}
		if err := b.readTrees(ctx, []string{had.blob}, []string{dir}, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readTrees reads the objects names into out under dirs, in order; an
// object that is not a tree reads as an empty directory with no id.
func (b *gitBackend) readTrees(ctx context.Context, names, dirs []string, out map[string]dirTree) error {
	return b.r.catObjects(ctx, names, func(i int, id, typ string, content io.Reader) error {
		d := dirTree{entries: map[string]treeEntry{}}
		if typ == "tree" {
			d.id = id
			if err := parseTree(content, d.entries); err != nil {
				return err
			}
		}
		out[dirs[i]] = d
		return nil
	})
}

// parseTree reads a raw tree object ("mode name\0" and a 20-byte id per
// entry) into entries.
func parseTree(r io.Reader, entries map[string]treeEntry) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	const idSize = 20 // SHA-1, the shadow repository's object format
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp <= 0 || nul < sp || len(data) < nul+1+idSize {
			return fmt.Errorf("%w: a snapshot tree cannot be read", ErrCorrupt)
		}
		entries[string(data[sp+1:nul])] = treeEntry{mode: string(data[:sp]), blob: hex.EncodeToString(data[nul+1 : nul+1+idSize])}
		data = data[nul+1+idSize:]
	}
	return nil
}
