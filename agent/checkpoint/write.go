package checkpoint

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"syscall"
)

// The helpers below change the project only through an *os.Root, which
// refuses any name (.., absolute symlinks, symlinks leading out) that would
// reach outside the project root. Names are slash-separated and relative.

// writeFile puts content at rel with perm, atomically: a synced temporary
// file in the same directory renamed over rel. Missing parent directories
// are created; an empty directory in the way is removed.
func writeFile(root *os.Root, rel string, content io.Reader, perm fs.FileMode) (err error) {
	if err := validRel(rel); err != nil {
		return err
	}
	if err := makeRoom(root, rel); err != nil {
		return err
	}
	tmp := tempName(rel)
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("restore %s: %w", rel, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			root.Remove(tmp)
			err = fmt.Errorf("restore %s: %w", rel, err)
		}
	}()
	if _, err = io.Copy(f, content); err != nil {
		return err
	}
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return root.Rename(tmp, rel)
}

// writeSymlink makes rel a symlink to target, replacing what is there
// atomically.
func writeSymlink(root *os.Root, rel, target string) error {
	if err := validRel(rel); err != nil {
		return err
	}
	if err := makeRoom(root, rel); err != nil {
		return err
	}
	tmp := tempName(rel)
	if err := root.Symlink(target, tmp); err != nil {
		return fmt.Errorf("restore %s: %w", rel, err)
	}
	if err := root.Rename(tmp, rel); err != nil {
		root.Remove(tmp)
		return fmt.Errorf("restore %s: %w", rel, err)
	}
	return nil
}

// makeRoom creates rel's parent directories and removes an empty directory
// standing at rel. A non-empty one is ErrBlocked.
func makeRoom(root *os.Root, rel string) error {
	if err := root.MkdirAll(path.Dir(rel), 0o755); err != nil {
		return fmt.Errorf("%w: restore %s: %w", ErrBlocked, rel, err)
	}
	fi, err := root.Lstat(rel)
	if err != nil || !fi.IsDir() {
		return nil
	}
	if err := root.Remove(rel); err != nil {
		return fmt.Errorf("%w: restore %s: the directory there is not empty", ErrBlocked, rel)
	}
	return nil
}

// removePath deletes the file or symlink at rel, or the directory when it
// is empty (a non-empty directory is left alone), then removes parent
// directories the removal left empty. It reports whether rel was removed.
func removePath(root *os.Root, rel string) (bool, error) {
	if err := validRel(rel); err != nil {
		return false, err
	}
	fi, err := root.Lstat(rel)
	if isAbsent(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("remove %s: %w", rel, err)
	}
	if err := root.Remove(rel); err != nil {
		if fi.IsDir() {
			return false, nil
		}
		return false, fmt.Errorf("remove %s: %w", rel, err)
	}
	pruneParents(root, rel)
	return true, nil
}

// pruneParents removes rel's parent directories while they are empty real
// directories (never symlinks, never the root).
func pruneParents(root *os.Root, rel string) {
	for dir := path.Dir(rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
		fi, err := root.Lstat(dir)
		if err != nil || !fi.IsDir() || root.Remove(dir) != nil {
			return
		}
	}
}

// gitPerm is the permission to give a restored file git records only as
// executable or not: an existing file keeps its bits with the execute bits
// set (where readable) or cleared; a new one gets 0755 or 0644.
func gitPerm(root *os.Root, rel string, exec bool) fs.FileMode {
	fi, err := root.Lstat(rel)
	if err != nil || !fi.Mode().IsRegular() {
		if exec {
			return 0o755
		}
		return 0o644
	}
	p := fi.Mode().Perm()
	if exec {
		return p | (p&0o444)>>2
	}
	return p &^ 0o111
}

// isAbsent reports whether a stat error means there is nothing at the path
// (including a parent that is a file).
func isAbsent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// tempName is a fresh hidden name next to rel.
func tempName(rel string) string {
	return path.Join(path.Dir(rel), "."+path.Base(rel)+".companion-"+rand.Text()[:10])
}
