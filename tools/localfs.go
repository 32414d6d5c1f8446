package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// LocalFiles reads and writes the local disk. Writes are atomic: a crash
// leaves the old file or the new one, never a torn one. When ctx carries
// the calling tool's Roots (the tools add them before they call a Files),
// every operation is confined as the tools' own local operations are: no
// folder on the path may have become a symbolic link since it was checked.
type LocalFiles struct{}

// ReadTextFile implements Files.
func (LocalFiles) ReadTextFile(ctx context.Context, path string) (string, error) {
	return ReadLocal(rootsFrom(ctx), path, -1)
}

// WriteTextFile implements Files, keeping the file's mode when it exists.
func (LocalFiles) WriteTextFile(ctx context.Context, path, content string) error {
	return WriteLocal(rootsFrom(ctx), path, content, 0, true)
}

// WriteFileAtomic writes data to a temporary file in path's directory,
// syncs it, gives it mode and renames it over path. Missing parent
// directories are created.
func WriteFileAtomic(path string, data []byte, mode fs.FileMode) error {
	r, name, err := openParent(nil, filepath.Clean(path), true)
	if err != nil {
		return err
	}
	defer r.Close()
	return replaceAtomic(r, name, path, bytesSource(data), mode)
}

// WriteLocal writes content to abs atomically, confined by roots (see
// openParent). With keepMode an existing file keeps its permissions and a
// new one gets 0o644; otherwise the file gets mode.
func WriteLocal(roots *Roots, abs, content string, mode fs.FileMode, keepMode bool) error {
	r, name, err := openParent(roots, abs, true)
	if err != nil {
		return err
	}
	defer r.Close()
	if keepMode {
		mode = 0o644
		if fi, err := r.Stat(name); err == nil {
			mode = fi.Mode().Perm()
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return replaceAtomic(r, name, abs, stringSource(content), mode)
}

// source writes content to a file without copying it first.
type source func(w io.Writer) error

func stringSource(s string) source {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func bytesSource(b []byte) source {
	return func(w io.Writer) error { _, err := w.Write(b); return err }
}

// tempMarker is in the name of every temporary file an atomic write makes:
// ".<name>.companion-<pid>-<random>.tmp", beside the file it replaces.
const tempMarker = ".companion-"

// staleTempAge is how long a temporary file must have been left alone
// before it is removed. The writer holds a lock on its file (see
// lockTemp) and names its process, so a file whose process is gone and
// whose lock is free is abandoned; the age only covers the moment between
// a file's creation and its lock, and writers on another machine sharing
// the folder where locks do not reach.
const staleTempAge = time.Minute

// legacyTempAge is staleTempAge for the names without a process id that
// older versions made, whose writer cannot be asked about.
const legacyTempAge = 10 * time.Minute

// replaceAtomic writes src to a new temporary file in r, syncs it, gives it
// mode and renames it over name; shown names the file in errors. Temporary
// files that crashed writes left in r are removed first.
func replaceAtomic(r *os.Root, name, shown string, src source, mode fs.FileMode) (err error) {
	removeStaleTemps(r, time.Now())
	f, tmp, err := createTemp(r, name)
	if err != nil {
		return fmt.Errorf("create temporary file: %w", err)
	}
	lockTemp(f)
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = r.Remove(tmp)
		}
	}()
	if err = src(f); err != nil {
		return fmt.Errorf("write %s: %w", shown, err)
	}
	if err = f.Chmod(mode); err != nil {
		return fmt.Errorf("chmod %s: %w", shown, err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", shown, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", shown, err)
	}
	if err = r.Rename(tmp, name); err != nil {
		return fmt.Errorf("rename into %s: %w", shown, err)
	}
	if d, derr := r.Open("."); derr == nil {
		_ = d.Sync() // makes the rename durable where the system allows
		_ = d.Close()
	}
	return nil
}

// createTemp creates a new temporary file for name in r.
func createTemp(r *os.Root, name string) (*os.File, string, error) {
	pid := strconv.Itoa(os.Getpid())
	for range 100 {
		tmp := "." + name + tempMarker + pid + "-" + strconv.FormatUint(rand.Uint64()%(1<<40), 36) + ".tmp"
		f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
	return nil, "", fmt.Errorf("no free temporary name for %s", name)
}

// tempOwner parses a temporary file's name: the process that made it (0
// for the names os.CreateTemp gave before, which carry no process id).
func tempOwner(name string) (pid int, ok bool) {
	if !strings.HasPrefix(name, ".") {
		return 0, false
	}
	i := strings.LastIndex(name, tempMarker)
	if i <= 1 {
		return 0, false
	}
	rest := name[i+len(tempMarker):]
	if body, isNew := strings.CutSuffix(rest, ".tmp"); isNew {
		p, rnd, found := strings.Cut(body, "-")
		n, err := strconv.Atoi(p)
		if !found || err != nil || n <= 0 || rnd == "" || strings.Trim(rnd, "0123456789abcdefghijklmnopqrstuvwxyz") != "" {
			return 0, false
		}
		return n, true
	}
	if rest == "" || strings.Trim(rest, "0123456789") != "" {
		return 0, false
	}
	return 0, true
}

// removeStaleTemps removes the temporary files of atomic writes that never
// finished (the process crashed) from the folder r.
func removeStaleTemps(r *os.Root, now time.Time) {
	d, err := r.Open(".")
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	_ = d.Close()
	for _, name := range names {
		removeIfStale(r, name, now)
	}
}

// removeIfStale removes name from r when it is an abandoned temporary
// file of an atomic write: a regular file named as companion names them,
// whose process is gone and whose lock is free, unchanged for
// staleTempAge (legacyTempAge for a name without a process id).
func removeIfStale(r *os.Root, name string, now time.Time) bool {
	pid, ok := tempOwner(name)
	if !ok || pid == os.Getpid() || (pid > 0 && processAlive(pid)) {
		return false
	}
	age := staleTempAge
	if pid == 0 {
		age = legacyTempAge
	}
	fi, err := r.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() || now.Sub(fi.ModTime()) < age || tempLocked(r, name) {
		return false
	}
	return r.Remove(name) == nil
}

// processAlive reports whether a process with this id exists. Where the
// system cannot tell (no signal 0), the file's age alone decides.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// MakeParents creates the folders above path that are missing, confined
// like LocalFiles when ctx carries the calling tool's Roots: the editor
// path of a write, whose editor creates the file but not always its folder.
func MakeParents(ctx context.Context, path string) error {
	r, _, err := openParent(rootsFrom(ctx), filepath.Clean(path), true)
	if err != nil {
		return err
	}
	return r.Close()
}

// MissingLocally reports whether path does not exist on the local disk,
// looked up confined like LocalFiles. The editor path of a read uses it to
// tell a new file from a refusal when the editor answers a missing file
// with a generic error: only existence is read, never content.
func MissingLocally(ctx context.Context, path string) bool {
	_, err := StatLocal(rootsFrom(ctx), filepath.Clean(path))
	return errors.Is(err, fs.ErrNotExist)
}
