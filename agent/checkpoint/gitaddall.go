package checkpoint

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
)

// worktreeChanges lists what differs between the work tree and the shadow
// index, in one `git status` of the shadow repository: the tracked paths
// whose file changed, changed type or went away, and the untracked paths
// the project's ignore rules (its .gitignore files and, read only, its
// info/exclude) do not match. git's untracked cache, kept in the shadow
// index, spares re-reading directories that did not change since the last
// snapshot; this is why the listing is a status and not `ls-files
// --others`, which reads every directory again. What the index holds
// against the shadow HEAD (the last whole-tree snapshot, see commit) is
// not looked at; a HEAD git cannot read is dropped and the status run
// again.
func (b *gitBackend) worktreeChanges(ctx context.Context) (changed, untracked []string, err error) {
	call := gitCall{config: []string{"core.untrackedCache=true", "status.showUntrackedFiles=all"}, args: []string{"status", "--porcelain=v2", "-z", "--untracked-files=all", "--ignored=no", "--no-renames", "--ignore-submodules=all"}}
	out, err := b.r.run(ctx, call)
	if err != nil && ctx.Err() == nil {
		b.log.Info("checkpoint: status failed; retrying without the shadow HEAD", "err", err)
		if _, herr := b.r.run(ctx, gitCall{args: []string{"symbolic-ref", "HEAD", unbornHead}}); herr != nil {
			return nil, nil, err
		}
		out, err = b.r.run(ctx, call)
	}
	if err != nil {
		return nil, nil, err
	}
	changed, untracked = parseStatus(out)
	return changed, untracked, nil
}

// unbornHead is the branch the shadow HEAD names when no whole-tree
// snapshot has set it; it never exists.
const unbornHead = "refs/companion/unborn"

// parseStatus reads `git status --porcelain=v2 -z` output: the paths of
// ordinary entries whose work-tree column is not "." (changed) and of
// untracked entries. Unmerged entries count as changed; a rename record's
// original path is skipped.
func parseStatus(out []byte) (changed, untracked []string) {
	recs := nulSplit(out)
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		switch {
		case strings.HasPrefix(rec, "? "):
			untracked = append(untracked, rec[2:])
		case strings.HasPrefix(rec, "1 "):
			if f := strings.SplitN(rec, " ", 9); len(f) == 9 && len(f[1]) == 2 && f[1][1] != '.' {
				changed = append(changed, f[8])
			}
		case strings.HasPrefix(rec, "2 "):
			if f := strings.SplitN(rec, " ", 10); len(f) == 10 && len(f[1]) == 2 && f[1][1] != '.' {
				changed = append(changed, f[9])
			}
			i++ // the original path
		case strings.HasPrefix(rec, "u "):
			if f := strings.SplitN(rec, " ", 11); len(f) == 11 {
				changed = append(changed, f[10])
			}
		}
	}
	return changed, untracked
}

// addAll brings the shadow index up to date with the work tree, as `git
// add --all` does but without walking the tree again: the changed and
// untracked paths worktreeChanges listed go to one update-index. When
// update-index refuses a path (an unreadable file), `git add --all` does
// the work instead, leaving out the excluded paths through the shadow
// repository's info/exclude, which exists only while it runs (the
// status listing must see excluded files again, so that one that shrank
// is taken).
func (b *gitBackend) addAll(ctx context.Context, changed, untracked, excluded []string) error {
	paths := append(changed, untracked...)
	if len(paths) == 0 {
		return nil
	}
	call := gitCall{args: []string{"update-index", "-z", "--add", "--remove", "--replace", "--stdin"}, stdin: nulJoin(paths), ownStore: true}
	_, err := b.r.run(ctx, call)
	if err == nil || ctx.Err() != nil {
		return err
	}
	b.log.Debug("checkpoint: update-index refused a path; adding with git add --all", "err", err)
	file := filepath.Join(b.r.gitDir, "info", "exclude")
	if err := writeFileAtomic(file, excludeList(excluded, b)); err != nil {
		return err
	}
	defer os.Remove(file)
	if _, err := b.r.run(ctx, gitCall{args: []string{"add", "--all", "--ignore-errors"}, ownStore: true}); err != nil {
		if exitCode(err) != 1 {
			return err
		}
		b.log.Warn("checkpoint: some files could not be read into the snapshot", "err", err)
	}
	return nil
}

// excludeList is the ignore file that leaves out the excluded paths.
func excludeList(excluded []string, b *gitBackend) []byte {
	var buf bytes.Buffer
	buf.WriteString("# written by companion's checkpoint store for one git add --all\n")
	for _, p := range excluded {
		if strings.ContainsAny(p, "\n\r") {
			b.log.Warn("checkpoint: cannot exclude a path with a newline", "path", p)
			continue
		}
		buf.WriteString("/" + escapeGlob(p) + "\n")
	}
	return buf.Bytes()
}
