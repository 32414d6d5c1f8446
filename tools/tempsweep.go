package tools

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// maxSweepEntries bounds the folder entries SweepStaleTemps reads in one
// root, so a huge workspace costs a session's start little.
const maxSweepEntries = 200_000

// SweepStaleTemps removes, under each of roots, the temporary files that
// atomic writes of a companion which died mid-write left behind (see
// removeIfStale: only companion's own names, their process gone, their
// lock free, old enough). The next write in a folder removes them there as
// well; this finds those in folders nothing writes to again. It reads at
// most maxSweepEntries entries per root, follows no symbolic link, skips
// .git folders and stops when ctx ends. It returns the number removed.
func SweepStaleTemps(ctx context.Context, roots ...string) int {
	removed := 0
	now := time.Now()
	for _, root := range roots {
		removed += sweepRoot(ctx, root, now)
	}
	return removed
}

// sweepRoot is SweepStaleTemps for one root.
func sweepRoot(ctx context.Context, root string, now time.Time) int {
	removed, seen := 0, 0
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		seen++
		switch {
		case ctx.Err() != nil || seen > maxSweepEntries:
			return filepath.SkipAll
		case err != nil:
			return nil
		case d.IsDir() && d.Name() == ".git":
			return filepath.SkipDir
		case !d.Type().IsRegular():
			return nil
		}
		if _, ok := tempOwner(d.Name()); !ok {
			return nil
		}
		r, err := os.OpenRoot(filepath.Dir(path))
		if err != nil {
			return nil
		}
		if removeIfStale(r, d.Name(), now) {
			removed++
		}
		_ = r.Close()
		return nil
	})
	return removed
}
