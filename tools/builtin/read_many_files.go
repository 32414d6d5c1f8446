package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"companion/tools"

	"github.com/bmatcuk/doublestar/v4"
)

//go:embed descriptions/read_many_files.md
var readManyFilesDescription string

// readManyFilesParams are read_many_files' parameters. As in Gemini CLI,
// include adds patterns to paths rather than filtering them.
type readManyFilesParams struct {
	Paths            []string `json:"paths" required:"true" desc:"Files, directories or glob patterns to read, relative to the session root (or absolute inside the workspace), e.g. [\"src/**/*.go\", \"README.md\", \"docs\"]."`
	Include          []string `json:"include" desc:"More glob patterns to read, added to paths, e.g. [\"*.md\"]."`
	Exclude          []string `json:"exclude" desc:"Glob patterns of files to leave out, e.g. [\"**/*_test.go\"]. A pattern without \"/\" matches a file or directory name at any depth."`
	Recursive        bool     `json:"recursive" default:"true" desc:"Read the files in subdirectories of the directories named. Glob patterns follow their own \"**\". Defaults to true."`
	RespectGitIgnore bool     `json:"respect_git_ignore" default:"true" desc:"Leave out files excluded by .gitignore and .geminiignore files. Defaults to true."`
}

// readManyFilesTool reads several files at once.
type readManyFilesTool struct {
	opts ExtraOptions
}

func newReadManyFiles(o ExtraOptions) tools.Tool {
	desc := strings.NewReplacer(
		"{max_files}", strconv.Itoa(o.MaxReadFiles),
		"{max_bytes}", tools.FormatSize(int64(o.MaxReadBytes)),
		"{max_lines}", strconv.Itoa(o.Read.MaxLines),
		"{max_media}", tools.FormatSize(o.Read.MaxMediaBytes),
	).Replace(readManyFilesDescription)
	t := &readManyFilesTool{opts: o}
	return tools.Define(tools.Def[readManyFilesParams]{
		Name: "read_many_files", Kind: tools.KindRead,
		Description: desc,
		Prepare:     t.prepare,
	})
}

func (t *readManyFilesTool) prepare(env *tools.Env, p readManyFilesParams) (tools.Invocation, error) {
	var sources []manySource
	for _, arg := range append(p.Paths, p.Include...) {
		if strings.TrimSpace(arg) == "" {
			continue
		}
		s, err := newManySource(env, t.opts.Read, arg, p.RespectGitIgnore)
		if err != nil {
			return nil, err
		}
		sources = append(sources, s)
	}
	if len(sources) == 0 {
		return nil, tools.ArgErrorf("parameter %q must name at least one file, directory or glob pattern", "paths")
	}
	excl, err := excludePatterns(p.Exclude)
	if err != nil {
		return nil, err
	}
	return &readManyCall{env: env, opts: t.opts, p: p, sources: sources, exclude: excl}, nil
}

// manySource is one entry of paths or include: a literal file or
// directory, or a glob pattern.
type manySource struct {
	arg string
	// abs is the resolved literal path; "" for a glob.
	abs string
	// glob is the glob tool's call for a pattern; nil for a literal path.
	glob *globCall
}

// newManySource resolves arg: a path that exists (or names no pattern) is
// taken literally, anything else as a glob run by the glob tool.
func newManySource(env *tools.Env, opts ReadOnlyOptions, arg string, respect bool) (manySource, error) {
	arg = strings.TrimSpace(arg)
	abs, rerr := env.Roots.Resolve(arg)
	if !strings.ContainsAny(arg, "*?[{") {
		return manySource{arg: arg, abs: abs}, rerr
	}
	if rerr == nil {
		if _, err := tools.StatLocal(env.Roots, abs); err == nil {
			return manySource{arg: arg, abs: abs}, nil
		}
	}
	args, err := json.Marshal(globParams{Pattern: arg, RespectGitIgnore: respect})
	if err != nil {
		return manySource{}, err
	}
	inv, err := newGlob(opts).Prepare(env, args)
	if err != nil {
		return manySource{}, err
	}
	return manySource{arg: arg, glob: inv.(*globCall)}, nil
}

// excludePatterns checks the exclude globs and prepares them for matching.
func excludePatterns(ps []string) ([]string, error) {
	var out []string
	for _, p := range ps {
		p = strings.ToLower(filepath.ToSlash(strings.TrimSpace(p)))
		if p == "" {
			continue
		}
		if !doublestar.ValidatePattern(p) {
			return nil, tools.ArgErrorf("exclude pattern %q is not a valid glob", p)
		}
		out = append(out, strings.TrimSuffix(p, "/"))
	}
	return out, nil
}

// readManyCall is one validated read_many_files call.
type readManyCall struct {
	env     *tools.Env
	opts    ExtraOptions
	p       readManyFilesParams
	sources []manySource
	exclude []string
}

// ReadManyFilesRaw is read_many_files' structured output for front ends.
type ReadManyFilesRaw struct {
	// Files are the files read (absolute), in order.
	Files   []string      `json:"files"`
	Skipped []SkippedFile `json:"skipped,omitempty"`
	// Bytes is the size of the text returned.
	Bytes int `json:"bytes"`
	// Truncated is set when the output limit cut the text short.
	Truncated bool `json:"truncated,omitempty"`
	// Ignored counts entries left out by ignore files in directory and glob
	// walks; Excluded counts files left out by the exclude patterns.
	Ignored  int `json:"ignored,omitempty"`
	Excluded int `json:"excluded,omitempty"`
	// NotRead counts files found but left unread by the limits;
	// NotReadFiles names the first of them.
	NotRead      int      `json:"notRead,omitempty"`
	NotReadFiles []string `json:"notReadFiles,omitempty"`
}

// SkippedFile is a file or pattern read_many_files did not read, and why.
type SkippedFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

func (c *readManyCall) Title() string {
	args := make([]string, len(c.sources))
	for i, s := range c.sources {
		args[i] = s.arg
	}
	title, _ := cutText("Read "+strings.Join(args, ", "), 200)
	return title
}

func (c *readManyCall) Locations() []tools.Location {
	var locs []tools.Location
	for _, s := range c.sources {
		if s.abs != "" {
			locs = append(locs, tools.Location{Path: s.abs})
		}
	}
	return locs
}

func (c *readManyCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

func (c *readManyCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ex := manyExpansion{call: c, seen: map[string]bool{}}
	for _, s := range c.sources {
		if err := ex.addSource(ctx, s); err != nil {
			return nil, err
		}
	}
	out := manyOutput{env: c.env, opts: c.opts}
	out.raw.Skipped = ex.skipped
	out.raw.Ignored, out.raw.Excluded = ex.ignored, ex.excluded
	if err := out.readAll(ctx, ex.files); err != nil {
		return nil, err
	}
	return out.result(), nil
}

// manyExpansion turns the sources into an ordered list of files without
// duplicates, noting what it left out.
type manyExpansion struct {
	call    *readManyCall
	files   []string
	seen    map[string]bool
	skipped []SkippedFile
	// ignored and excluded count files left out by ignore files and by
	// the exclude patterns.
	ignored, excluded int
}

// addSource adds the files of one source.
func (ex *manyExpansion) addSource(ctx context.Context, s manySource) error {
	if s.glob != nil {
		w := s.glob.walker()
		ms, _, err := s.glob.collect(ctx, w)
		if err != nil {
			return err
		}
		ex.ignored += w.ignored
		if len(ms) == 0 {
			ex.skip(s.arg, "no files match this pattern")
		}
		for _, m := range ms {
			ex.add(m.abs)
		}
		return nil
	}
	c := ex.call
	fi, err := tools.StatLocal(c.env.Roots, s.abs)
	switch {
	case err != nil && c.env.Files != nil:
		ex.add(s.abs) // maybe a buffer only the editor has; reading will tell
		return nil
	case err != nil:
		ex.skip(c.env.Roots.Display(s.abs), "not found")
		return nil
	}
	root, _ := c.env.Roots.RootOf(s.abs)
	var ignore *ignoreTree
	if c.p.RespectGitIgnore {
		ignore = newIgnoreTree(root)
	}
	if ignore.ignored(relComponents(root, s.abs), fi.IsDir()) {
		ex.skip(c.env.Roots.Display(s.abs), "ignored by .gitignore or .geminiignore; pass respect_git_ignore false to read it")
		return nil
	}
	if !fi.IsDir() {
		ex.add(s.abs)
		return nil
	}
	w := &walker{roots: c.env.Roots, root: root, dir: s.abs, ignore: ignore}
	if !c.p.Recursive {
		w.maxDepth = 1
	}
	err = w.walk(ctx, func(abs string, _ []string, _ fs.DirEntry) error {
		ex.add(abs)
		if len(ex.files) >= globCollectCap {
			return errStopWalk
		}
		return nil
	})
	ex.ignored += w.ignored
	return err
}

// add appends a file unless it is already listed or excluded.
func (ex *manyExpansion) add(abs string) {
	if ex.seen[abs] {
		return
	}
	ex.seen[abs] = true
	if ex.call.env.Denied("read_many_files", abs) {
		ex.skip(ex.call.env.Roots.Display(abs), "a deny rule keeps it from being read")
		return
	}
	if ex.call.excluded(abs) {
		ex.excluded++
		return
	}
	ex.files = append(ex.files, abs)
}

func (ex *manyExpansion) skip(path, reason string) {
	ex.skipped = append(ex.skipped, SkippedFile{Path: path, Reason: reason})
}

// excluded reports whether abs matches an exclude pattern: a pattern
// without "/" matches any name along the path (file or directory), others
// the path relative to its root, or a directory above it.
func (c *readManyCall) excluded(abs string) bool {
	root, _ := c.env.Roots.RootOf(abs)
	rel := strings.ToLower(strings.Join(relComponents(root, abs), "/"))
	comps := strings.Split(rel, "/")
	for _, p := range c.exclude {
		if !strings.Contains(p, "/") {
			for _, name := range comps {
				if ok, _ := doublestar.Match(p, name); ok {
					return true
				}
			}
			continue
		}
		target := rel
		if strings.HasPrefix(p, "/") {
			target = strings.ToLower(filepath.ToSlash(abs))
		}
		if ok, _ := doublestar.Match(p, target); ok {
			return true
		}
		if ok, _ := doublestar.Match(p+"/**", target); ok {
			return true
		}
	}
	return false
}
