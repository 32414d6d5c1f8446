package builtin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"companion/tools"
)

// Errors of ReadForPrompt. (They belong in errors.go; kept here while other
// helpers edit that file.)
var (
	// ErrNotFileURI means a mention is neither a file:// URI nor a path.
	ErrNotFileURI = errors.New("not a file URI or path")
	// ErrTooLarge means a mentioned image or PDF is over the media limit.
	ErrTooLarge = errors.New("file too large")
)

// ReadForPrompt reads what an editor @-mention points at (an ACP
// resource_link): a file:// URI or a path, confined to env's roots. A file
// is read as read_file reads it (line and line-length caps, binary files
// named as such, images and PDFs returned as images); a fragment such as
// "#L10:20", "#L10-L20" or "#L10" (1-based lines, as editors write
// selections) reads just those lines. A directory is read as
// read_many_files reads it. A missing file is an error wrapping
// fs.ErrNotExist; a path outside the roots one wrapping ErrOutsideRoots.
func ReadForPrompt(ctx context.Context, env *tools.Env, uri string) (text string, images []tools.Image, err error) {
	path, lines, err := parseMentionURI(uri)
	if err != nil {
		return "", nil, err
	}
	abs, err := env.Roots.Resolve(path)
	if err != nil {
		return "", nil, err
	}
	o := ExtraOptions{}.withDefaults()
	fi, statErr := tools.StatLocal(env.Roots, abs)
	if statErr == nil && fi.IsDir() {
		return readDirForPrompt(ctx, env, o, abs)
	}
	c := &readFileCall{env: env, opts: o.Read, abs: abs, limit: o.Read.MaxLines}
	if lines[0] > 0 {
		c.offset = lines[0] - 1
		c.limit = min(max(lines[1]-lines[0]+1, 1), o.Read.MaxLines)
	}
	if mime := mediaType(abs); mime != "" {
		if statErr != nil {
			return "", nil, fmt.Errorf("read %s: %w", abs, statErr)
		}
		return readMediaForPrompt(ctx, c, mime)
	}
	r, err := openText(ctx, env, abs)
	if err != nil {
		return "", nil, fmt.Errorf("read %s: %w", abs, err)
	}
	defer func() { _ = r.Close() }()
	pg, err := readPage(ctx, r, c.offset, c.limit, o.Read.MaxLineLength)
	if err != nil {
		return "", nil, fmt.Errorf("read %s: %w", abs, err)
	}
	if c.offset > 0 && c.offset >= pg.total {
		return ReadForPrompt(ctx, env, abs) // a stale selection: show the whole file
	}
	return c.format(pg).Text, nil, nil
}

// readMediaForPrompt returns a mentioned image or PDF.
func readMediaForPrompt(ctx context.Context, c *readFileCall, mime string) (string, []tools.Image, error) {
	res, err := c.readMedia(ctx, mime)
	if err != nil {
		return "", nil, err
	}
	if res.IsError {
		return "", nil, fmt.Errorf("%w: %s", ErrTooLarge, res.Text)
	}
	return res.Text, res.Images, nil
}

// readDirForPrompt reads a mentioned directory as read_many_files would.
func readDirForPrompt(ctx context.Context, env *tools.Env, o ExtraOptions, abs string) (string, []tools.Image, error) {
	c := &readManyCall{
		env: env, opts: o,
		p:       readManyFilesParams{Recursive: true, RespectGitIgnore: true},
		sources: []manySource{{arg: env.Roots.Display(abs), abs: abs}},
	}
	res, err := c.Execute(ctx, nil)
	if err != nil {
		return "", nil, err
	}
	return res.Text, res.Images, nil
}

// errIsDir is why a directory cannot be read as a text file.
var errIsDir = errors.New("is a directory")

// openText opens a text file through the editor when it offers itself
// (and the file is not too big to ask for), else from disk, keeping the
// error (fs.ErrNotExist for a missing file, errIsDir for a directory).
func openText(ctx context.Context, env *tools.Env, abs string) (io.ReadCloser, error) {
	fi, statErr := tools.StatLocal(env.Roots, abs)
	switch {
	case statErr == nil && fi.IsDir():
		return nil, errIsDir
	case errors.Is(statErr, tools.ErrPathChanged):
		return nil, statErr
	}
	if env.Files != nil && (statErr != nil || fi.Size() <= maxEditorRead) {
		text, err := env.Files.ReadTextFile(tools.WithRoots(ctx, env.Roots), abs)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(strings.NewReader(text)), nil
	}
	f, err := tools.OpenLocal(env.Roots, abs)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// parseMentionURI returns the path a mention names and its 1-based line
// range ({0, 0} for the whole file).
func parseMentionURI(uri string) (path string, lines [2]int, err error) {
	uri = strings.TrimSpace(uri)
	if uri == "" {
		return "", lines, fmt.Errorf("%w: empty", ErrNotFileURI)
	}
	if filepath.IsAbs(uri) || !strings.Contains(uri, ":") {
		return uri, lines, nil
	}
	u, err := url.Parse(uri)
	if err != nil || !strings.EqualFold(u.Scheme, "file") {
		return "", lines, fmt.Errorf("%w: %q", ErrNotFileURI, uri)
	}
	if u.Host != "" && !strings.EqualFold(u.Host, "localhost") {
		return "", lines, fmt.Errorf("%w: %q names another host", ErrNotFileURI, uri)
	}
	path = u.Path
	if len(path) >= 3 && path[0] == '/' && path[2] == ':' {
		path = path[1:] // file:///C:/x on Windows
	}
	return filepath.FromSlash(path), lineRange(u.Fragment), nil
}

// lineRange parses a line-range fragment, L10, L10:20, L10-20 or L10-L20,
// into 1-based first and last lines; anything else gives {0, 0}.
func lineRange(frag string) [2]int {
	rest, ok := strings.CutPrefix(frag, "L")
	if !ok {
		return [2]int{}
	}
	first, last, ranged := strings.Cut(strings.Replace(rest, ":", "-", 1), "-")
	a, err := strconv.Atoi(first)
	if err != nil || a < 1 {
		return [2]int{}
	}
	if !ranged {
		return [2]int{a, a}
	}
	b, err := strconv.Atoi(strings.TrimPrefix(last, "L"))
	if err != nil || b < a {
		return [2]int{}
	}
	return [2]int{a, b}
}
