package builtin

import (
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"companion/tools"

	"github.com/bmatcuk/doublestar/v4"
)

//go:embed descriptions/glob.md
var globDescription string

// globCollectCap bounds how many matches glob gathers before it stops
// walking, so a pattern like "**" on a huge tree stays cheap.
const globCollectCap = 20000

// recentWindow is how recently a file must have changed to be listed first.
const recentWindow = 24 * time.Hour

// globParams are glob's parameters, as Gemini CLI names them.
type globParams struct {
	Pattern          string `json:"pattern" required:"true" desc:"The glob pattern, e.g. \"**/*.go\" or \"src/**/*.{ts,tsx}\". Matched against paths relative to dir_path."`
	DirPath          string `json:"dir_path" alias:"path" desc:"The directory to search in, e.g. \"src\": absolute or relative to the session root. Defaults to the session root."`
	CaseSensitive    bool   `json:"case_sensitive" desc:"Match letter case exactly. Defaults to false."`
	RespectGitIgnore bool   `json:"respect_git_ignore" default:"true" desc:"Leave out files excluded by .gitignore and .geminiignore files. Defaults to true."`
}

// globTool finds files by name pattern.
type globTool struct {
	opts ReadOnlyOptions
	rg   rgLocator
}

func newGlob(o ReadOnlyOptions) tools.Tool {
	t := &globTool{opts: o, rg: rgLocator{setting: o.RipgrepPath}}
	return tools.Define(tools.Def[globParams]{
		Name: "glob", Kind: tools.KindSearch,
		Description: globDescription,
		Prepare:     t.prepare,
	})
}

func (t *globTool) prepare(env *tools.Env, p globParams) (tools.Invocation, error) {
	pattern := filepath.ToSlash(strings.TrimSpace(p.Pattern))
	if pattern == "" {
		return nil, tools.ArgErrorf("parameter %q must not be empty", "pattern")
	}
	if !doublestar.ValidatePattern(pattern) {
		return nil, tools.ArgErrorf("pattern %q is not a valid glob", p.Pattern)
	}
	dir, err := env.Roots.Resolve(p.DirPath)
	if err != nil {
		return nil, err
	}
	c := &globCall{env: env, opts: t.opts, rg: t.rg.find(), dir: dir, start: dir, pattern: pattern, p: p}
	// Start the walk below the pattern's literal prefix ("src/" in
	// "src/**/*.go"); an absolute pattern must name a place in the roots.
	if filepath.IsAbs(pattern) || p.CaseSensitive {
		base, rest := doublestar.SplitPattern(pattern)
		start := base
		if !filepath.IsAbs(base) {
			start = filepath.Join(dir, base)
		}
		if c.start, err = env.Roots.Resolve(start); err != nil {
			return nil, err
		}
		c.pattern = rest
	}
	return c, nil
}

// globCall is one validated glob call.
type globCall struct {
	env *tools.Env
	// opts are the tool's limits.
	opts ReadOnlyOptions
	// rg is the ripgrep binary that lists the files; "" walks in Go.
	rg string
	// dir is the directory the model named; start is where the walk begins
	// and pattern is what is left to match below it.
	dir, start, pattern string
	p                   globParams
}

// GlobRaw is glob's structured output for front ends.
type GlobRaw struct {
	Pattern   string `json:"pattern"`
	Dir       string `json:"dir"`
	Found     int    `json:"found"`
	Shown     int    `json:"shown"`
	Truncated bool   `json:"truncated,omitempty"`
	Ignored   int    `json:"ignored,omitempty"`
}

func (c *globCall) Title() string {
	return fmt.Sprintf("Glob %s in %s", c.p.Pattern, c.env.Roots.Display(c.dir))
}
func (c *globCall) Locations() []tools.Location                               { return []tools.Location{{Path: c.dir}} }
func (c *globCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

// globMatch is one file found.
type globMatch struct {
	abs   string
	mtime time.Time
}

func (c *globCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	shown := c.env.Roots.DisplayDir(c.dir)
	if fi, err := tools.StatLocal(c.env.Roots, c.dir); err != nil || !fi.IsDir() {
		return tools.ErrorResult(fmt.Sprintf("Directory not found: %s.", shown)), nil
	}
	w := c.walker()
	matches, capped, err := c.collect(ctx, w)
	if err != nil {
		return nil, err
	}
	sortGlobMatches(matches, c.opts.Now().Add(-recentWindow))
	return c.format(shown, matches, capped, w.ignored), nil
}

// walker builds the walk for this call.
func (c *globCall) walker() *walker {
	root, _ := c.env.Roots.RootOf(c.start)
	w := &walker{roots: c.env.Roots, root: root, dir: c.start, rg: c.rg, foldCase: !c.p.CaseSensitive,
		denied: func(abs string) bool { return c.env.Denied("glob", abs) }}
	w.nameGlob = rgNameGlob(c.pattern)
	if c.p.RespectGitIgnore {
		w.ignore = newIgnoreTree(root)
	}
	if !strings.Contains(c.pattern, "**") {
		w.maxDepth = strings.Count(c.pattern, "/") + 1
	}
	return w
}

// rgNameGlob returns the glob every file pattern matches has as its name
// (the pattern's last component) when ripgrep's glob syntax reads it as
// doublestar does, else "" (rg then lists every file).
func rgNameGlob(pattern string) string {
	name := pattern[strings.LastIndexByte(pattern, '/')+1:]
	if name == "" || strings.Contains(name, "**") {
		return ""
	}
	depth := 0
	for _, r := range name {
		switch {
		case r == '{':
			depth++
			if depth > 1 {
				return "" // rg has no nested alternatives
			}
		case r == '}':
			depth--
		case r == '*' || r == '?' || r == ',' || r == '.' || r == '-' || r == '_' || r == ' ',
			r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		default:
			return ""
		}
	}
	if depth != 0 {
		return ""
	}
	return name
}

// collect walks and gathers the matching files, up to globCollectCap.
func (c *globCall) collect(ctx context.Context, w *walker) ([]globMatch, bool, error) {
	if _, err := tools.StatLocal(w.roots, w.dir); errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil // the pattern's literal prefix does not exist
	}
	pattern := c.pattern
	if !c.p.CaseSensitive {
		pattern = strings.ToLower(pattern)
	}
	matchName := func(rel []string) bool {
		name := strings.Join(rel, "/")
		if !c.p.CaseSensitive {
			name = strings.ToLower(name)
		}
		ok, _ := doublestar.Match(pattern, name)
		return ok
	}
	var matches []globMatch
	capped := false
	w.files = matchName
	err := w.walk(ctx, func(abs string, rel []string, d fs.DirEntry) error {
		m := globMatch{abs: abs}
		if fi, err := d.Info(); err == nil {
			m.mtime = fi.ModTime()
		}
		matches = append(matches, m)
		if len(matches) >= globCollectCap {
			capped = true
			return errStopWalk
		}
		return nil
	})
	if err == nil && len(matches) == 0 && w.rg != "" && w.ignore != nil {
		// rg pruned what .gitignore files leave out without a word.
		w.ignored = max(w.ignored, w.countIgnoredRg(ctx, matchName))
	}
	return matches, capped, err
}

// sortGlobMatches orders files changed after recent first, newest first,
// then the rest by path (Gemini CLI's order).
func sortGlobMatches(ms []globMatch, recent time.Time) {
	slices.SortFunc(ms, func(a, b globMatch) int {
		ar, br := a.mtime.After(recent), b.mtime.After(recent)
		switch {
		case ar && br:
			if c := b.mtime.Compare(a.mtime); c != 0 {
				return c
			}
		case ar:
			return -1
		case br:
			return 1
		}
		return cmp.Compare(a.abs, b.abs)
	})
}

// format renders the file list with notes on what was cut or ignored.
func (c *globCall) format(shown string, ms []globMatch, capped bool, ignored int) *tools.Result {
	raw := GlobRaw{Pattern: c.p.Pattern, Dir: c.dir, Found: len(ms)}
	var b strings.Builder
	if len(ms) == 0 {
		fmt.Fprintf(&b, "No files found matching %q in %s.", c.p.Pattern, shown)
		if ignored > 0 {
			fmt.Fprintf(&b, "\n(.gitignore or .geminiignore rules left out %d %s; pass respect_git_ignore false to search them too.)",
				ignored, plural(ignored, "entry", "entries"))
		}
		raw.Ignored = ignored
		return &tools.Result{Text: b.String(), Raw: raw}
	}
	show := ms[:min(len(ms), c.opts.MaxGlobResults)]
	raw.Shown, raw.Truncated = len(show), len(show) < len(ms) || capped
	fmt.Fprintf(&b, "Found %d %s matching %q in %s (changed in the last 24 hours first, newest first; then by path):\n",
		len(ms), plural(len(ms), "file", "files"), c.p.Pattern, shown)
	for _, m := range show {
		b.WriteString(c.env.Roots.Display(m.abs))
		b.WriteByte('\n')
	}
	switch {
	case capped:
		fmt.Fprintf(&b, "(The search stopped after %d files; use a narrower pattern or dir_path.)\n", len(ms))
	case len(show) < len(ms):
		fmt.Fprintf(&b, "(Showing %d of %d files; use a narrower pattern or dir_path to see the rest.)\n", len(show), len(ms))
	}
	return &tools.Result{Text: strings.TrimSuffix(b.String(), "\n"), Raw: raw}
}
