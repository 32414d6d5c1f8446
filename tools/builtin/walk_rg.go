package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// errRgInexact means a .geminiignore file re-includes something with a
// "!" pattern, which ripgrep cannot be told; the walk then runs in Go.
var errRgInexact = errors.New("a .geminiignore negation needs the Go walk")

// walkRipgrep lists the files under w.dir with `rg --files`, in no
// particular order, and visits those that the walk's ignore rules keep. It
// returns errRgInexact or a wrapped errRipgrep when the Go walk must run
// instead (before anything was visited).
func (w *walker) walkRipgrep(parent context.Context, visit visitFunc) error {
	fromRoot := relComponents(w.root, w.dir)
	if w.ignore != nil && w.geminiNegationAbove(fromRoot) {
		return errRgInexact
	}
	args := append([]string{"--files", "--null"}, rgIgnoreArgs(w.ignore != nil)...)
	if w.maxDepth > 0 {
		args = append(args, "--max-depth", strconv.Itoa(w.maxDepth))
	}
	if w.nameGlob != "" {
		flag := "--glob"
		if w.foldCase {
			flag = "--iglob"
		}
		args = append(args, flag, w.nameGlob, "--glob", geminiIgnoreFile)
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.rg, append(args, "--", ".")...)
	cmd.Dir = w.dir
	cmd.WaitDelay = time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return errors.Join(errRipgrep, err)
	}
	if err := cmd.Start(); err != nil {
		return errors.Join(errRipgrep, err)
	}
	paths, readErr := readNul(out)
	if readErr != nil {
		cancel()
	}
	waitErr := cmd.Wait()
	if err := parent.Err(); err != nil {
		return err
	}
	if readErr != nil {
		return errors.Join(errRipgrep, readErr)
	}
	var exit *exec.ExitError
	if waitErr != nil && !(errors.As(waitErr, &exit) && exit.ExitCode() == 1) {
		return errors.Join(errRipgrep, waitErr)
	}
	return w.visitListed(parent, fromRoot, paths, visit)
}

// readNul reads rg's NUL-separated paths.
func readNul(r io.Reader) ([]string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var paths []string
	for {
		p, err := br.ReadString(0)
		if p = strings.TrimSuffix(p, "\x00"); p != "" {
			paths = append(paths, strings.TrimPrefix(filepath.ToSlash(p), "./"))
		}
		if errors.Is(err, io.EOF) {
			return paths, nil
		}
		if err != nil {
			return paths, err
		}
	}
}

// visitListed filters rg's paths through the ignore rules and visits the
// rest. A .geminiignore file holding a negation stops it with
// errRgInexact before anything is visited.
func (w *walker) visitListed(ctx context.Context, fromRoot []string, paths []string, visit visitFunc) error {
	keep := paths[:0]
	for _, p := range paths {
		if w.ignore != nil && (p == geminiIgnoreFile || strings.HasSuffix(p, "/"+geminiIgnoreFile)) {
			if hasNegation(filepath.Join(w.dir, p)) {
				return errRgInexact
			}
			if w.nameGlob != "" {
				continue // listed only to be checked
			}
		}
		keep = append(keep, p)
	}
	filter := newIgnoreFilter(w.ignore, fromRoot)
	for _, p := range keep {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		rel := strings.Split(p, "/")
		if filter.ignored(rel) {
			w.ignored++
			continue
		}
		if w.files != nil && !w.files(rel) {
			continue
		}
		abs := filepath.Join(w.dir, filepath.FromSlash(p))
		if w.skip(abs) {
			continue
		}
		if err := visit(abs, rel, listedEntry{abs: abs, name: rel[len(rel)-1]}); err != nil {
			return err
		}
	}
	return nil
}

// geminiNegationAbove reports whether a .geminiignore file from the root
// down to the walk's start (which rg does not read) holds a negation.
func (w *walker) geminiNegationAbove(fromRoot []string) bool {
	for i := 0; i <= len(fromRoot); i++ {
		dir := filepath.Join(w.root, filepath.Join(fromRoot[:i]...))
		if hasNegation(filepath.Join(dir, geminiIgnoreFile)) {
			return true
		}
	}
	return false
}

// hasNegation reports whether an ignore file holds a "!" pattern.
func hasNegation(file string) bool {
	data, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		if p, ok := parseIgnoreLine(string(line)); ok && p.negate {
			return true
		}
	}
	return false
}

// listedEntry is a file rg listed, as an fs.DirEntry; Info reads its
// metadata (not following a symbolic link) on demand.
type listedEntry struct{ abs, name string }

func (e listedEntry) Name() string               { return e.name }
func (e listedEntry) IsDir() bool                { return false }
func (e listedEntry) Type() fs.FileMode          { return 0 }
func (e listedEntry) Info() (fs.FileInfo, error) { return os.Lstat(e.abs) }

// countIgnoredRg counts, for a ripgrep walk that found nothing, the files
// under w.dir that match (as the caller judges them) and that the ignore
// rules left out, by listing again with every ignore file off. It tells
// the model that the rules, not the pattern, emptied the answer.
func (w *walker) countIgnoredRg(ctx context.Context, match func(rel []string) bool) int {
	args := append([]string{"--files", "--null"}, rgIgnoreArgs(false)...)
	if w.maxDepth > 0 {
		args = append(args, "--max-depth", strconv.Itoa(w.maxDepth))
	}
	if w.nameGlob != "" {
		flag := "--glob"
		if w.foldCase {
			flag = "--iglob"
		}
		args = append(args, flag, w.nameGlob)
	}
	cmd := exec.CommandContext(ctx, w.rg, append(args, "--", ".")...)
	cmd.Dir = w.dir
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		return 0
	}
	paths, _ := readNul(bytes.NewReader(out))
	n := 0
	for _, p := range paths {
		if match(strings.Split(p, "/")) {
			n++
		}
	}
	return n
}
