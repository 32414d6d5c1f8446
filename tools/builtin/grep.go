package builtin

import (
	"context"
	_ "embed"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"companion/tools"

	"github.com/bmatcuk/doublestar/v4"
)

//go:embed descriptions/grep.md
var grepDescription string

// grepParams are grep's parameters (Gemini CLI's search_file_content).
type grepParams struct {
	Pattern string `json:"pattern" required:"true" desc:"The regular expression (RE2 syntax) to search file contents for, e.g. \"func\\\\s+main\" or \"TODO|FIXME\"."`
	DirPath string `json:"dir_path" alias:"path" desc:"The directory to search in, e.g. \"internal/store\": absolute or relative to the session root. Defaults to the session root."`
	Include string `json:"include" desc:"A glob limiting the files searched, e.g. \"*.go\" or \"src/**/*.{ts,tsx}\". Without a \"/\" it matches file names at any depth."`
}

// grepTool searches file contents with ripgrep when it is installed, else
// with a parallel search in Go; both give the same output.
type grepTool struct {
	opts ReadOnlyOptions
	rg   rgLocator
}

func newGrep(o ReadOnlyOptions) tools.Tool {
	desc := strings.NewReplacer(
		"{max_matches}", strconv.Itoa(o.MaxGrepMatches),
		"{max_line_length}", strconv.Itoa(o.MaxGrepLineLength),
		"{max_file_size}", tools.FormatSize(o.MaxGrepFileSize),
	).Replace(grepDescription)
	t := &grepTool{opts: o, rg: rgLocator{setting: o.RipgrepPath}}
	return tools.Define(tools.Def[grepParams]{
		Name: "grep", Kind: tools.KindSearch,
		Description: desc,
		Prepare:     t.prepare,
	})
}

func (t *grepTool) prepare(env *tools.Env, p grepParams) (tools.Invocation, error) {
	if p.Pattern == "" {
		return nil, tools.ArgErrorf("parameter %q must not be empty", "pattern")
	}
	re, err := regexp.Compile(p.Pattern)
	if err != nil {
		return nil, tools.ArgErrorf("pattern %q is not a valid RE2 regular expression: %v", p.Pattern, err)
	}
	include := filepath.ToSlash(strings.TrimSpace(p.Include))
	if include != "" && !doublestar.ValidatePattern(include) {
		return nil, tools.ArgErrorf("include %q is not a valid glob", p.Include)
	}
	dir, err := env.Roots.Resolve(p.DirPath)
	if err != nil {
		return nil, err
	}
	root, _ := env.Roots.RootOf(dir)
	q := grepQuery{
		roots: env.Roots, re: re, whole: wholeFileRegexp(p.Pattern), root: root, dir: dir, include: include,
		limit: t.opts.MaxGrepMatches, maxFileSize: t.opts.MaxGrepFileSize,
		denied: func(abs string) bool { return env.Denied("grep", abs) },
	}
	return &grepCall{env: env, tool: t, p: p, q: q}, nil
}

// grepQuery is what both search engines need.
type grepQuery struct {
	// roots confines the opening of dir.
	roots *tools.Roots
	re    *regexp.Regexp
	// whole, when set, matches a whole file's text wherever re matches one
	// of its lines (and maybe more): the Go search skips files it does
	// not match without splitting them into lines.
	whole *regexp.Regexp
	// root is the workspace root holding dir; ignore rules start there.
	root, dir string
	// include is the optional file glob, with forward slashes.
	include string
	// limit is the most matches shown; engines gather limit+1 so the caller
	// knows whether there are more.
	limit       int
	maxFileSize int64
	// denied reports the files a deny rule keeps from being read
	// (tools.Env.Denied); nil denies nothing.
	denied func(abs string) bool
}

// walker returns the walk the Go search makes.
func (q *grepQuery) walker() *walker {
	return &walker{roots: q.roots, root: q.root, dir: q.dir, ignore: newIgnoreTree(q.root)}
}

// wholeFileRegexp returns pattern in multi-line mode, where ^ and $ match
// at every line, so it matches a file wherever pattern matches a line;
// nil for patterns that pin the text's own ends or turn that mode off.
func wholeFileRegexp(pattern string) *regexp.Regexp {
	if strings.Contains(pattern, `\A`) || strings.Contains(pattern, `\z`) || strings.Contains(pattern, "-m") {
		return nil
	}
	re, err := regexp.Compile("(?m:" + pattern + ")")
	if err != nil {
		return nil
	}
	return re
}

// grepLine is one matching line.
type grepLine struct {
	abs  string
	line int
	text string
}

// included reports whether a file (components relative to the search
// directory) passes the include glob and no deny rule hides it. A glob
// without "/" matches the file's name at any depth, as ripgrep's --glob
// does.
func (q *grepQuery) included(rel []string) bool {
	if q.denied != nil && q.denied(filepath.Join(q.dir, filepath.Join(rel...))) {
		return false
	}
	if q.include == "" {
		return true
	}
	name := strings.Join(rel, "/")
	if !strings.Contains(q.include, "/") {
		name = rel[len(rel)-1]
	}
	ok, _ := doublestar.Match(q.include, name)
	return ok
}

// grepCall is one validated grep call.
type grepCall struct {
	env  *tools.Env
	tool *grepTool
	p    grepParams
	q    grepQuery
}

// GrepRaw is grep's structured output for front ends.
type GrepRaw struct {
	Pattern   string `json:"pattern"`
	Dir       string `json:"dir"`
	Include   string `json:"include,omitempty"`
	Matches   int    `json:"matches"`
	Files     int    `json:"files"`
	Truncated bool   `json:"truncated,omitempty"`
	// Engine is "ripgrep" or "go".
	Engine string `json:"engine"`
	// SkippedLarge counts files not searched for being over the size limit.
	SkippedLarge int `json:"skippedLarge,omitempty"`
}

func (c *grepCall) Title() string {
	return fmt.Sprintf("Grep %q in %s", c.p.Pattern, c.env.Roots.Display(c.q.dir))
}
func (c *grepCall) Locations() []tools.Location                               { return []tools.Location{{Path: c.q.dir}} }
func (c *grepCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

func (c *grepCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if fi, err := tools.StatLocal(c.env.Roots, c.q.dir); err != nil || !fi.IsDir() {
		return tools.ErrorResult(fmt.Sprintf("Directory not found: %s.", c.env.Roots.Display(c.q.dir))), nil
	}
	lines, large, engine, err := c.search(ctx)
	if err != nil {
		return nil, err
	}
	res := c.format(lines, engine)
	c.noteLarge(res, large)
	return res, nil
}

// search runs ripgrep when available, falling back to the Go search when rg
// fails (a pattern RE2 accepts and rg's regex engine does not, say). Both
// report the files left out for their size.
func (c *grepCall) search(ctx context.Context) ([]grepLine, grepLarge, string, error) {
	if rg := c.tool.rg.find(); rg != "" {
		lines, large, err := searchRipgrep(ctx, rg, c.q)
		if err == nil {
			return lines, large, "ripgrep", nil
		}
		if ctx.Err() != nil {
			return nil, grepLarge{}, "", ctx.Err()
		}
		c.env.Log.Warn("ripgrep failed; searching in Go", "err", err)
	}
	lines, large, err := searchGo(ctx, c.q)
	return lines, large, "go", err
}

// noteLarge tells the model which files were too big to search.
func (c *grepCall) noteLarge(res *tools.Result, large grepLarge) {
	if large.n == 0 {
		return
	}
	names := make([]string, len(large.first))
	for i, abs := range large.first {
		names[i] = c.env.Roots.Display(abs)
	}
	list := strings.Join(names, ", ")
	if rest := large.n - len(names); rest > 0 {
		list += fmt.Sprintf(" and %d more", rest)
	}
	res.Text += fmt.Sprintf("\n(%d %s larger than %s %s not searched: %s.)", large.n,
		plural(large.n, "file", "files"), tools.FormatSize(c.q.maxFileSize), plural(large.n, "was", "were"), list)
	if raw, ok := res.Raw.(GrepRaw); ok {
		raw.SkippedLarge = large.n
		res.Raw = raw
	}
}

// format renders matches grouped by file, in search order.
func (c *grepCall) format(lines []grepLine, engine string) *tools.Result {
	raw := GrepRaw{Pattern: c.p.Pattern, Dir: c.q.dir, Include: c.p.Include, Engine: engine}
	where := c.env.Roots.DisplayDir(c.q.dir)
	if c.q.include != "" {
		where += fmt.Sprintf(" (files matching %q)", c.q.include)
	}
	if len(lines) == 0 {
		return &tools.Result{Text: fmt.Sprintf("No matches found for pattern %q in %s.", c.p.Pattern, where), Raw: raw}
	}
	if len(lines) > c.q.limit {
		lines, raw.Truncated = lines[:c.q.limit], true
	}
	var b strings.Builder
	more := ""
	if raw.Truncated {
		more = "the first "
	}
	fmt.Fprintf(&b, "Found %s%d %s for pattern %q in %s:\n", more, len(lines),
		plural(len(lines), "match", "matches"), c.p.Pattern, where)
	file := ""
	for _, l := range lines {
		if l.abs != file {
			file = l.abs
			raw.Files++
			fmt.Fprintf(&b, "---\nFile: %s\n", c.env.Roots.Display(l.abs))
		}
		fmt.Fprintf(&b, "L%d: %s\n", l.line, c.cut(l.text))
	}
	b.WriteString("---")
	if raw.Truncated {
		fmt.Fprintf(&b, "\n(There are more than %d matches; use a more specific pattern, dir_path or include to see the rest.)", c.q.limit)
	}
	raw.Matches = len(lines)
	return &tools.Result{Text: b.String(), Raw: raw}
}

// cut prepares a matching line for display: valid UTF-8, no line ending,
// at most MaxGrepLineLength characters.
func (c *grepCall) cut(text string) string {
	text = strings.TrimSuffix(strings.ToValidUTF8(text, "\uFFFD"), "\r")
	max := c.tool.opts.MaxGrepLineLength
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	n := 0
	for i := range text {
		if n == max {
			return text[:i] + lineCutMarker
		}
		n++
	}
	return text
}
