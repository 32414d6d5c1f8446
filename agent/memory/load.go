package memory

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// scope says whose a file is; it names the file in the rendered text.
type scope string

// Scopes of instruction files.
const (
	scopeUser    scope = "User"
	scopeProject scope = "Project"
)

// entry is one loaded instruction file.
type entry struct {
	// path is where the file was found (absolute, clean, links unresolved).
	path  string
	scope scope
	// text is its content with imports expanded, trimmed and fitted into
	// the size budget.
	text string
}

// state is the result of loading: Refresh builds a new one, Touch adds to it.
type state struct {
	entries []entry
	// seen holds the real paths of every file read, empty ones included, so
	// each file is loaded once however it is reached.
	seen map[string]bool
	// used counts the bytes of the entries' text against MaxBytes.
	used int
}

// loader reads instruction files into a state.
type loader struct {
	opts Options
	// allowed are the directories imports may read from: the project root
	// and the user directories, each as given and with links resolved.
	allowed []string
	// project are the project root as given and with links resolved.
	project []string
	st      *state
}

// newLoader returns a loader adding to st.
func newLoader(opts Options, project string, st *state) *loader {
	var allowed []string
	for _, d := range append([]string{project}, opts.UserDirs...) {
		d = filepath.Clean(d)
		allowed = append(allowed, d, realPath(d))
	}
	return &loader{opts: opts, allowed: allowed, project: allowed[:2], st: st}
}

// loadDir loads the instruction files in dir not loaded yet and returns the
// new, non-empty ones.
func (l *loader) loadDir(dir string, sc scope) []entry {
	var out []entry
	for _, name := range l.opts.FileNames {
		if e, ok := l.loadFile(filepath.Join(dir, name), sc); ok {
			out = append(out, e)
		}
	}
	return out
}

// loadFile loads one instruction file unless it is missing, unreadable,
// empty or already loaded.
func (l *loader) loadFile(path string, sc scope) (entry, bool) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			l.opts.Log.Warn("memory: cannot resolve instruction file", "path", path, "err", err)
		}
		return entry{}, false
	}
	if l.st.seen[real] {
		return entry{}, false
	}
	text, err := readText(real, l.opts.MaxBytes)
	if err != nil {
		l.opts.Log.Warn("memory: cannot read instruction file", "path", path, "err", err)
		return entry{}, false
	}
	l.st.seen[real] = true
	x := &expander{l: l, scope: sc}
	text = strings.TrimSpace(x.expand(text, path, []string{real}, 0))
	if text == "" {
		return entry{}, false
	}
	e := entry{path: path, scope: sc, text: l.fit(text)}
	l.st.entries = append(l.st.entries, e)
	return e, true
}

// fit cuts text to what is left of the size budget and counts it.
func (l *loader) fit(text string) string {
	left := l.opts.MaxBytes - l.st.used
	if len(text) <= left {
		l.st.used += len(text)
		return text
	}
	l.st.used = l.opts.MaxBytes
	limit := formatSize(l.opts.MaxBytes)
	if left <= 0 {
		return fmt.Sprintf("[not loaded: the instruction files reached their limit of %s]", limit)
	}
	return cut(text, left) + fmt.Sprintf("\n[cut here: the instruction files reached their limit of %s]", limit)
}

// errNotText means a file holds binary data.
var errNotText = errors.New("not a text file")

// readText reads at most max+1 bytes of a regular text file.
func readText(path string, max int) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return "", err
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return "", errNotText
	}
	return strings.ReplaceAll(string(data), "\r\n", "\n"), nil
}

// cut shortens text to at most n bytes, at a line end when one is near and
// never inside a UTF-8 sequence.
func cut(text string, n int) string {
	if len(text) <= n {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	if i := strings.LastIndexByte(text[:n], '\n'); i >= n/2 {
		n = i
	}
	return text[:n]
}

// realPath resolves links in a clean absolute path; a path that does not
// exist (yet) is returned as it is.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// formatSize renders a byte count for people and models.
func formatSize(n int) string {
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
