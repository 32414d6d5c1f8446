package checkpoint

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
)

// addAll brings the shadow index up to date with the work tree, as `git
// add --all` does, in one walk of the tree instead of two: the untracked
// files excludeUntracked listed (its walk) and the tracked files that
// changed or went away (diff-files, a stat of each tracked file and no
// walk) go to update-index. When the project's info/exclude holds
// patterns (the listing did not apply them), or update-index refuses a
// path (a file turned directory, an unreadable file), `git add --all`
// does the work instead.
func (b *gitBackend) addAll(ctx context.Context, untracked []string) error {
	if common := commonDir(b.r.workTree); common == "" || !hasPatterns(filepath.Join(common, "info", "exclude")) {
		out, err := b.r.run(ctx, gitCall{args: []string{"diff-files", "-z", "--name-only"}})
		if err != nil {
			return err
		}
		paths := append(nulSplit(out), untracked...)
		if len(paths) == 0 {
			return nil
		}
		call := gitCall{args: []string{"update-index", "-z", "--add", "--remove", "--stdin"}, stdin: nulJoin(paths), ownStore: true}
		if _, err = b.r.run(ctx, call); err == nil || ctx.Err() != nil {
			return err
		}
		b.log.Debug("checkpoint: update-index refused a path; adding with git add --all", "err", err)
	}
	if _, err := b.r.run(ctx, gitCall{args: []string{"add", "--all", "--ignore-errors"}, ownStore: true}); err != nil {
		if exitCode(err) != 1 {
			return err
		}
		b.log.Warn("checkpoint: some files could not be read into the snapshot", "err", err)
	}
	return nil
}

// hasPatterns reports whether the ignore file name holds a pattern (a
// line neither blank nor a comment); a missing file holds none.
func hasPatterns(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
			return true
		}
	}
	return false
}
