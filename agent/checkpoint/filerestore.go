package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// restore puts back the paths named by target and by every newer
// checkpoint of the file store (since, newest first, ending with target).
// A path takes its state from the oldest of those checkpoints naming it:
// its state before the first change since target. Other files are not
// touched.
func (b *fileBackend) restore(ctx context.Context, target Checkpoint, since []Checkpoint) (Restoration, error) {
	goal, err := b.goal(since)
	if err != nil {
		return Restoration{}, err
	}
	paths := make([]string, 0, len(goal))
	for p := range goal {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	undo, err := b.save(ctx, RestoreLabelPrefix+target.ID, paths)
	if err != nil {
		return Restoration{}, err
	}
	root, err := os.OpenRoot(b.root)
	if err != nil {
		return Restoration{}, fmt.Errorf("open project root: %w", err)
	}
	defer root.Close()
	res := Restoration{Target: target, Undo: undo}
	for _, e := range orderEntries(goal) {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		changed, err := b.put(root, e)
		if err != nil {
			return res, err
		}
		switch {
		case !changed:
		case e.Kind == kindAbsent:
			res.Removed = append(res.Removed, e.Path)
		default:
			res.Written = append(res.Written, e.Path)
		}
	}
	return res, nil
}

// goal merges the manifests of since, oldest first: the first state
// recorded for a path wins. A path skipped there is left out.
func (b *fileBackend) goal(since []Checkpoint) (map[string]entry, error) {
	goal := map[string]entry{}
	decided := map[string]bool{}
	for i := len(since) - 1; i >= 0; i-- {
		m, err := b.readManifest(since[i].rev)
		if err != nil {
			return nil, err
		}
		for _, p := range m.Skipped {
			decided[p] = true
		}
		for _, e := range m.Entries {
			if decided[e.Path] {
				continue
			}
			if err := validEntry(e); err != nil {
				return nil, fmt.Errorf("%w: manifest %s: %w", ErrCorrupt, since[i].rev, err)
			}
			decided[e.Path] = true
			goal[e.Path] = e
		}
	}
	return goal, nil
}

// orderEntries sorts the goal for applying: removals deepest first, then
// directories shallowest first, then files and symlinks.
func orderEntries(goal map[string]entry) []entry {
	rank := map[string]int{kindAbsent: 0, kindDir: 1, kindFile: 2, kindSymlink: 2}
	out := make([]entry, 0, len(goal))
	for _, e := range goal {
		out = append(out, e)
	}
	slices.SortFunc(out, func(x, y entry) int {
		if c := rank[x.Kind] - rank[y.Kind]; c != 0 {
			return c
		}
		dx, dy := strings.Count(x.Path, "/"), strings.Count(y.Path, "/")
		if x.Kind == kindAbsent {
			dx, dy = dy, dx
		}
		if dx != dy {
			return dx - dy
		}
		return strings.Compare(x.Path, y.Path)
	})
	return out
}

// put makes e's path match e, reporting whether anything changed.
func (b *fileBackend) put(root *os.Root, e entry) (bool, error) {
	switch e.Kind {
	case kindAbsent:
		return removePath(root, e.Path)
	case kindDir:
		return putDir(root, e)
	case kindSymlink:
		if cur, err := root.Readlink(e.Path); err == nil && cur == e.Target {
			return false, nil
		}
		return true, writeSymlink(root, e.Path, e.Target)
	case kindFile:
		if sameFile(root, e) {
			return false, nil
		}
		obj, err := os.Open(b.objectPath(e.Hash))
		if err != nil {
			return false, fmt.Errorf("%w: content of %s: %w", ErrCorrupt, e.Path, err)
		}
		defer obj.Close()
		return true, writeFile(root, e.Path, obj, e.Perm)
	}
	return false, fmt.Errorf("%w: %s has unknown kind %q", ErrCorrupt, e.Path, e.Kind)
}

// putDir makes sure the directory e exists, replacing a file or symlink in
// its place (the undo checkpoint holds it).
func putDir(root *os.Root, e entry) (bool, error) {
	fi, err := root.Lstat(e.Path)
	if err == nil && fi.IsDir() {
		return false, nil
	}
	if err == nil {
		if err := root.Remove(e.Path); err != nil {
			return false, fmt.Errorf("restore %s: %w", e.Path, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("restore %s: %w", e.Path, err)
	}
	if err := root.MkdirAll(e.Path, e.Perm|0o700); err != nil {
		return false, fmt.Errorf("%w: restore %s: %w", ErrBlocked, e.Path, err)
	}
	return true, nil
}

// sameFile reports whether rel already is a regular file with e's content
// and permission.
func sameFile(root *os.Root, e entry) bool {
	fi, err := root.Lstat(e.Path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != e.Perm {
		return false
	}
	f, err := root.Open(e.Path)
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == e.Hash
}

// validEntry checks a manifest entry read back from disk.
func validEntry(e entry) error {
	if err := validRel(e.Path); err != nil || e.Path == "." {
		return fmt.Errorf("bad path %q", e.Path)
	}
	if e.Kind != kindFile {
		return nil
	}
	if b, err := hex.DecodeString(e.Hash); err != nil || len(b) != sha256.Size {
		return fmt.Errorf("bad content hash for %s", e.Path)
	}
	return nil
}
