package tools

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// gitDir is never listed or searched, whatever the ignore rules say.
const gitDir = ".git"

// walker visits the regular files under a directory in a fixed order (depth
// first, each directory's entries sorted by name), skipping .git, entries the
// ignore rules exclude and symlinks (never followed, so a walk cannot leave
// the roots). It checks ctx at every directory.
type walker struct {
	// root is the workspace root holding dir; ignore rules are relative to it.
	root string
	// dir is where the walk starts.
	dir string
	// ignore holds the ignore rules; nil ignores nothing.
	ignore *ignoreTree
	// maxDepth limits how deep the walk goes below dir (1: only dir's own
	// entries); 0 means no limit.
	maxDepth int
	// ignored counts entries skipped by the ignore rules.
	ignored int
}

// visitFunc receives one regular file: its absolute path, its components
// relative to the walk's start directory, and its directory entry. It returns
// errStopWalk to end the walk early.
type visitFunc func(abs string, rel []string, d fs.DirEntry) error

// walk runs visit on every file. It returns ctx's error when cancelled.
func (w *walker) walk(ctx context.Context, visit visitFunc) error {
	err := w.walkDir(ctx, w.dir, relComponents(w.root, w.dir), nil, visit)
	if errors.Is(err, errStopWalk) {
		return nil
	}
	return err
}

func (w *walker) walkDir(ctx context.Context, abs string, fromRoot, rel []string, visit visitFunc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil // unreadable directories are skipped, as git and rg do
	}
	rules := w.ignore.rules(fromRoot)
	for _, d := range entries {
		name := d.Name()
		if name == gitDir {
			continue
		}
		childRoot := append(fromRoot[:len(fromRoot):len(fromRoot)], name)
		childRel := append(rel[:len(rel):len(rel)], name)
		if rules.match(childRoot, d.IsDir()) {
			w.ignored++
			continue
		}
		childAbs := filepath.Join(abs, name)
		switch {
		case d.IsDir():
			if w.maxDepth > 0 && len(childRel) >= w.maxDepth {
				continue
			}
			err = w.walkDir(ctx, childAbs, childRoot, childRel, visit)
		case d.Type().IsRegular():
			err = visit(childAbs, childRel, d)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
