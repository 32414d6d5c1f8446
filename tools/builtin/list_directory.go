package builtin

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"companion/tools"

	"github.com/bmatcuk/doublestar/v4"
)

//go:embed descriptions/list_directory.md
var listDirectoryDescription string

// listDirectoryParams are list_directory's parameters. Older Gemini CLI
// versions called dir_path "path"; both are accepted.
type listDirectoryParams struct {
	DirPath          string   `json:"dir_path" required:"true" alias:"path" desc:"The directory to list, e.g. \".\" or \"src/components\": absolute, or relative to the session root."`
	Ignore           []string `json:"ignore" desc:"Glob patterns matched against entry names; matching entries are left out (e.g. [\"*.log\", \"dist\"])."`
	RespectGitIgnore bool     `json:"respect_git_ignore" default:"true" desc:"Leave out entries excluded by .gitignore and .geminiignore files. Defaults to true."`
}

// listDirectoryTool lists one directory.
type listDirectoryTool struct {
	opts ReadOnlyOptions
}

func newListDirectory(o ReadOnlyOptions) tools.Tool {
	t := &listDirectoryTool{opts: o}
	return tools.Define(tools.Def[listDirectoryParams]{
		Name: "list_directory", Kind: tools.KindSearch,
		Description: listDirectoryDescription,
		Prepare:     t.prepare,
	})
}

func (t *listDirectoryTool) prepare(env *tools.Env, p listDirectoryParams) (tools.Invocation, error) {
	for _, g := range p.Ignore {
		if !doublestar.ValidatePattern(g) {
			return nil, tools.ArgErrorf("ignore pattern %q is not a valid glob", g)
		}
	}
	abs, err := env.Roots.Resolve(p.DirPath)
	if err != nil {
		return nil, err
	}
	return &listDirectoryCall{env: env, opts: t.opts, abs: abs, p: p}, nil
}

// listDirectoryCall is one validated list_directory call.
type listDirectoryCall struct {
	env  *tools.Env
	opts ReadOnlyOptions
	abs  string
	p    listDirectoryParams
}

// ListDirectoryRaw is list_directory's structured output for front ends.
type ListDirectoryRaw struct {
	Path      string `json:"path"`
	Dirs      int    `json:"dirs"`
	Files     int    `json:"files"`
	Ignored   int    `json:"ignored,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
}

func (c *listDirectoryCall) Title() string               { return "List " + c.env.Roots.Display(c.abs) }
func (c *listDirectoryCall) Locations() []tools.Location { return []tools.Location{{Path: c.abs}} }
func (c *listDirectoryCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	return nil, nil
}

func (c *listDirectoryCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	shown := c.env.Roots.DisplayDir(c.abs)
	fi, err := tools.StatLocal(c.env.Roots, c.abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tools.ErrorResult(fmt.Sprintf("Directory not found: %s.", shown)), nil
	case err != nil:
		return tools.ErrorResult(fmt.Sprintf("Could not list %s: %v", shown, err)), nil
	case !fi.IsDir():
		return tools.ErrorResult(fmt.Sprintf("%s is a file, not a directory; use read_file to read it.", shown)), nil
	}
	entries, err := tools.ReadDirLocal(c.env.Roots, c.abs)
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("Could not list %s: %v", shown, err)), nil
	}
	dirs, files, ignored := c.classify(entries)
	return c.format(shown, dirs, files, ignored), nil
}

// classify splits the entries that are shown into directories and files,
// counting those the ignore rules leave out.
func (c *listDirectoryCall) classify(entries []fs.DirEntry) (dirs, files []string, ignored int) {
	var rules *ignoreRules
	var here []string
	if c.p.RespectGitIgnore {
		root, _ := c.env.Roots.RootOf(c.abs)
		here = relComponents(root, c.abs)
		rules = newIgnoreTree(root).rules(here)
	}
	for _, d := range entries {
		name := d.Name()
		if c.hiddenByParam(name) || (c.p.RespectGitIgnore && name == gitDir) {
			continue
		}
		isDir := c.isDir(d)
		if c.p.RespectGitIgnore && rules.match(append(here[:len(here):len(here)], name), isDir) {
			ignored++
			continue
		}
		if isDir {
			dirs = append(dirs, name)
		} else {
			files = append(files, name)
		}
	}
	return dirs, files, ignored
}

// hiddenByParam reports whether one of the call's ignore globs matches name.
func (c *listDirectoryCall) hiddenByParam(name string) bool {
	for _, g := range c.p.Ignore {
		if ok, _ := doublestar.Match(g, name); ok {
			return true
		}
	}
	return false
}

// isDir reports whether d is a directory, or a symlink to a directory inside
// the roots (links leading out of them are shown as plain entries).
func (c *listDirectoryCall) isDir(d fs.DirEntry) bool {
	if d.IsDir() {
		return true
	}
	if d.Type()&fs.ModeSymlink == 0 {
		return false
	}
	target, err := c.env.Roots.Resolve(filepath.Join(c.abs, d.Name()))
	if err != nil {
		return false
	}
	fi, err := tools.StatLocal(c.env.Roots, target)
	return err == nil && fi.IsDir()
}

// format renders the listing, directories first, with notes on what is cut
// or ignored.
func (c *listDirectoryCall) format(shown string, dirs, files []string, ignored int) *tools.Result {
	raw := ListDirectoryRaw{Path: c.abs, Dirs: len(dirs), Files: len(files), Ignored: ignored}
	lines := make([]string, 0, len(dirs)+len(files))
	for _, d := range dirs {
		lines = append(lines, "[DIR] "+d)
	}
	lines = append(lines, files...)
	total := len(lines)
	if total > c.opts.MaxListEntries {
		lines = lines[:c.opts.MaxListEntries]
		raw.Truncated = true
	}
	var b strings.Builder
	if total == 0 {
		fmt.Fprintf(&b, "Directory %s is empty.", shown)
	} else {
		fmt.Fprintf(&b, "Directory listing for %s:\n%s", shown, strings.Join(lines, "\n"))
	}
	if raw.Truncated {
		fmt.Fprintf(&b, "\n(Showing the first %d of %d entries; use glob with a narrower pattern to find the rest.)",
			len(lines), total)
	}
	if ignored > 0 {
		fmt.Fprintf(&b, "\n(%d %s left out by .gitignore or .geminiignore rules; pass respect_git_ignore false to include them.)",
			ignored, plural(ignored, "entry was", "entries were"))
	}
	return &tools.Result{Text: b.String(), Raw: raw}
}

// plural picks the singular or plural form for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
