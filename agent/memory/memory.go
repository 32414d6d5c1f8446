package memory

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"companion/tools"
)

// Defaults of Options.
const (
	DefaultMaxBytes       = 256 << 10
	DefaultMaxImportDepth = 5
)

// DefaultFileNames are the instruction file names read when Options has
// none: companion's and Gemini CLI's, then Claude Code's CLAUDE.md, so a
// project written for any of them is understood.
func DefaultFileNames() []string { return []string{"AGENTS.md", "GEMINI.md", "CLAUDE.md"} }

// Options says which files are instructions and how much of them to load.
type Options struct {
	// FileNames are the instruction file names looked for in every
	// directory, in this order. The first is the user's main memory file,
	// the one AddUserMemory writes. Default: AGENTS.md, GEMINI.md, CLAUDE.md.
	FileNames []string
	// UserDirs are the user's configuration directories as absolute paths
	// (for example ~/.config/companion and ~/.gemini, expanded), read
	// first, in this order. Imports may read from them.
	UserDirs []string
	// MaxBytes caps the text of all files together, imports included.
	// Default 256 KiB.
	MaxBytes int
	// MaxImportDepth is how deeply `@path` imports may nest. Default 5.
	MaxImportDepth int
	// Log receives diagnostics (unreadable files); nil discards them.
	Log *slog.Logger
}

// withDefaults fills in unset options.
func (o Options) withDefaults() Options {
	if len(o.FileNames) == 0 {
		o.FileNames = DefaultFileNames()
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxImportDepth <= 0 {
		o.MaxImportDepth = DefaultMaxImportDepth
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return o
}

// Memory is a session's loaded instruction files. It is safe for concurrent
// use: tools running in parallel may Touch it.
type Memory struct {
	opts    Options
	project string
	session string

	// mu guards st and touched; it is held while files load, so a Touch
	// during a Refresh waits for it.
	mu sync.Mutex
	// st holds the files loaded so far.
	st *state
	// touched are the directories Touch was called with that lie below the
	// session root, so Refresh loads their files again.
	touched []string
}

// Load reads the user's instruction files, then the project's from
// projectRoot down to sessionRoot, one directory at a time (general to
// specific). An empty projectRoot means FindProjectRoot(sessionRoot); a
// projectRoot that does not hold sessionRoot is ignored. Files that are
// missing or unreadable are skipped; the error is ErrBadRoot for a relative
// root or ctx's error when cancelled.
func Load(ctx context.Context, opts Options, projectRoot, sessionRoot string) (*Memory, error) {
	if !filepath.IsAbs(sessionRoot) || (projectRoot != "" && !filepath.IsAbs(projectRoot)) {
		return nil, fmt.Errorf("%w: %q, %q", ErrBadRoot, projectRoot, sessionRoot)
	}
	session := filepath.Clean(sessionRoot)
	project := session
	if projectRoot == "" {
		project = FindProjectRoot(session)
	} else if p := filepath.Clean(projectRoot); tools.Within(p, session) {
		project = p
	}
	m := &Memory{opts: opts.withDefaults(), project: project, session: session}
	if err := m.Refresh(ctx); err != nil {
		return nil, err
	}
	return m, nil
}

// FindProjectRoot returns the nearest ancestor of dir (dir included) holding
// a .git entry, or dir when there is none.
func FindProjectRoot(dir string) string {
	dir = filepath.Clean(dir)
	for cur := dir; ; {
		if _, err := os.Lstat(filepath.Join(cur, ".git")); err == nil {
			return cur
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return dir
		}
		cur = parent
	}
}

// ProjectRoot returns the root the hierarchy starts from.
func (m *Memory) ProjectRoot() string { return m.project }

// Refresh reads every file again: the user's, the project's hierarchy and
// those of the directories touched so far. The error is ctx's when
// cancelled, in which case the files loaded before stay.
func (m *Memory) Refresh(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := newLoader(m.opts, m.project, &state{seen: map[string]bool{}})
	for _, dir := range m.opts.UserDirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		l.loadDir(filepath.Clean(dir), scopeUser)
	}
	dirs := pathDown(m.project, m.session)
	for _, t := range m.touched {
		dirs = append(dirs, pathDown(m.session, t)[1:]...)
	}
	for _, dir := range dirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		l.loadDir(dir, scopeProject)
	}
	m.st = l.st
	return nil
}

// Text renders every file loaded so far (those added by Touch included), in
// load order, each between a header and a footer naming its path; "" when
// there are none.
func (m *Memory) Text() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return render(m.st.entries)
}

// Files returns the paths of the files loaded so far, in load order.
func (m *Memory) Files() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]string, len(m.st.entries))
	for i, e := range m.st.entries {
		out[i] = e.path
	}
	return out
}

// render formats entries for the system prompt or the conversation.
func render(entries []entry) string {
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteString("\n\n")
		}
		fmt.Fprintf(&b, "--- %s instructions from %s ---\n%s\n--- End of %s ---", e.scope, e.path, e.text, e.path)
	}
	return b.String()
}

// pathDown lists the directories from top down to bottom, both included.
// bottom must lie within top.
func pathDown(top, bottom string) []string {
	var up []string
	for cur := bottom; ; cur = filepath.Dir(cur) {
		up = append(up, cur)
		if cur == top || filepath.Dir(cur) == cur {
			break
		}
	}
	out := make([]string, len(up))
	for i, d := range up {
		out[len(up)-1-i] = d
	}
	return out
}
