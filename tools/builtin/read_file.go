package builtin

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"companion/tools"
)

//go:embed descriptions/read_file.md
var readFileDescription string

// readFileParams are read_file's parameters, as Gemini CLI names them.
type readFileParams struct {
	FilePath string `json:"file_path" required:"true" alias:"absolute_path" desc:"The file to read, e.g. \"src/main.go\": absolute, or relative to the session root."`
	Offset   int    `json:"offset" minimum:"0" desc:"The 0-based line to start reading at, e.g. 2000. Use it with limit to page through large files."`
	Limit    int    `json:"limit" minimum:"1" desc:"The most lines to return. Defaults to (and is capped at) the tool's line limit."`
}

// readFileTool reads text, images and PDFs.
type readFileTool struct {
	opts ReadOnlyOptions
}

func newReadFile(o ReadOnlyOptions) tools.Tool {
	desc := strings.NewReplacer(
		"{max_lines}", strconv.Itoa(o.MaxLines),
		"{max_line_length}", strconv.Itoa(o.MaxLineLength),
		"{max_media}", tools.FormatSize(o.MaxMediaBytes),
	).Replace(readFileDescription)
	t := &readFileTool{opts: o}
	return tools.Define(tools.Def[readFileParams]{
		Name: "read_file", Kind: tools.KindRead,
		Description: desc,
		Prepare:     t.prepare,
	})
}

func (t *readFileTool) prepare(env *tools.Env, p readFileParams) (tools.Invocation, error) {
	if strings.TrimSpace(p.FilePath) == "" {
		return nil, tools.ArgErrorf("parameter %q must not be empty", "file_path")
	}
	abs, err := env.Roots.Resolve(p.FilePath)
	if err != nil {
		return nil, err
	}
	limit := p.Limit
	if limit <= 0 || limit > t.opts.MaxLines {
		limit = t.opts.MaxLines
	}
	return &readFileCall{env: env, opts: t.opts, abs: abs, offset: p.Offset, limit: limit}, nil
}

// readFileCall is one validated read_file call.
type readFileCall struct {
	env    *tools.Env
	opts   ReadOnlyOptions
	abs    string
	offset int
	limit  int
}

// ReadFileRaw is read_file's structured output for front ends.
type ReadFileRaw struct {
	Path       string `json:"path"`
	StartLine  int    `json:"startLine,omitempty"`
	EndLine    int    `json:"endLine,omitempty"`
	TotalLines int    `json:"totalLines"`
	Truncated  bool   `json:"truncated,omitempty"`
	CutLines   int    `json:"cutLines,omitempty"`
	Binary     bool   `json:"binary,omitempty"`
	MIMEType   string `json:"mimeType,omitempty"`
	Bytes      int64  `json:"bytes,omitempty"`
}

func (c *readFileCall) Title() string { return "Read " + c.env.Roots.Display(c.abs) }

func (c *readFileCall) Locations() []tools.Location {
	return []tools.Location{{Path: c.abs, Line: c.offset + 1}}
}

func (c *readFileCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

func (c *readFileCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if mime := mediaType(c.abs); mime != "" {
		return c.readMedia(ctx, mime)
	}
	r, res, err := c.open(ctx)
	if res != nil || err != nil {
		return res, err
	}
	defer func() { _ = r.Close() }()
	pg, err := readPage(ctx, r, c.offset, c.limit, c.opts.MaxLineLength)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return tools.ErrorResult(fmt.Sprintf("Could not read %s: %v", c.env.Roots.Display(c.abs), err)), nil
	}
	return c.format(pg), nil
}

// maxEditorRead is the largest file read_file asks the editor for; a
// bigger one (or one the editor cannot have open as text) is streamed from
// disk, so paging through it never holds it whole.
const maxEditorRead = 8 << 20

// open returns the file's text, through the editor when it offers itself
// and the file is not too big to ask for. A problem the model should hear
// about comes back as a Result.
func (c *readFileCall) open(ctx context.Context) (io.ReadCloser, *tools.Result, error) {
	r, err := openText(ctx, c.env, c.abs)
	switch {
	case errors.Is(err, errIsDir):
		return nil, tools.ErrorResult(fmt.Sprintf("%s is a directory, not a file; use list_directory to see what it holds.",
			c.env.Roots.Display(c.abs))), nil
	case err != nil:
		res, err := c.readError(ctx, err)
		return nil, res, err
	}
	return r, nil, nil
}

// readError turns a failed read into a result, or ctx's error when cancelled.
func (c *readFileCall) readError(ctx context.Context, err error) (*tools.Result, error) {
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	shown := c.env.Roots.Display(c.abs)
	if errors.Is(err, fs.ErrNotExist) {
		return tools.ErrorResult(fmt.Sprintf("File not found: %s. Check the path with glob or list_directory.", shown)), nil
	}
	c.env.Log.Debug("read_file failed", "path", c.abs, "err", err)
	return tools.ErrorResult(fmt.Sprintf("Could not read %s: %v", shown, err)), nil
}

// format renders a page of text with a note saying how to read on.
func (c *readFileCall) format(pg page) *tools.Result {
	shown := c.env.Roots.Display(c.abs)
	raw := ReadFileRaw{Path: c.abs, TotalLines: pg.total, CutLines: pg.cut, Binary: pg.binary}
	switch {
	case pg.binary:
		return &tools.Result{Text: fmt.Sprintf("Cannot show %s: it is a binary file.", shown), Raw: raw}
	case pg.total == 0:
		return &tools.Result{Text: fmt.Sprintf("%s is empty.", shown), Raw: raw}
	case c.offset >= pg.total:
		return tools.ErrorResult(fmt.Sprintf("offset %d is past the end of %s, which has %d lines; use an offset below %d.",
			c.offset, shown, pg.total, pg.total))
	}
	start, end := c.offset+1, c.offset+len(pg.lines)
	raw.StartLine, raw.EndLine = start, end
	raw.Truncated = start > 1 || end < pg.total
	var notes []string
	if end < pg.total {
		notes = append(notes, fmt.Sprintf("Showing lines %d-%d of %d; call read_file with offset %d to read more.",
			start, end, pg.total, end))
	} else if start > 1 {
		notes = append(notes, fmt.Sprintf("Showing lines %d-%d of %d (the end of the file).", start, end, pg.total))
	}
	if pg.cut > 0 {
		notes = append(notes, fmt.Sprintf("%d %s longer than %d characters %s cut, marked %q.",
			pg.cut, plural(pg.cut, "line", "lines"), c.opts.MaxLineLength,
			plural(pg.cut, "was", "were"), lineCutMarker))
	}
	text := strings.Join(pg.lines, "\n")
	if len(notes) > 0 {
		text = "[" + strings.Join(notes, " ") + "]\n" + text
	}
	return &tools.Result{Text: text, Raw: raw}
}

// mediaType returns the MIME type of files read_file returns as inline
// media, or "" for everything read as text (SVG included).
func mediaType(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	case ".webp":
		return "image/webp"
	case ".bmp":
		return "image/bmp"
	case ".pdf":
		return "application/pdf"
	}
	return ""
}

// readMedia returns an image or PDF from disk as inline data.
func (c *readFileCall) readMedia(ctx context.Context, mime string) (*tools.Result, error) {
	shown := c.env.Roots.Display(c.abs)
	f, err := tools.OpenLocal(c.env.Roots, c.abs)
	if err != nil {
		return c.readError(ctx, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return c.readError(ctx, err)
	}
	if fi.IsDir() {
		return tools.ErrorResult(fmt.Sprintf("%s is a directory, not a file; use list_directory to see what it holds.", shown)), nil
	}
	if fi.Size() > c.opts.MaxMediaBytes {
		return tools.ErrorResult(fmt.Sprintf("%s is %s, over the %s limit for images and PDFs.",
			shown, tools.FormatSize(fi.Size()), tools.FormatSize(c.opts.MaxMediaBytes))), nil
	}
	data := make([]byte, fi.Size())
	n, err := io.ReadFull(f, data)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return c.readError(ctx, err)
	}
	data = data[:n]
	what := "image"
	if mime == "application/pdf" {
		what = "PDF"
	}
	return &tools.Result{
		Text:   fmt.Sprintf("Read %s %s (%s, %s).", what, shown, mime, tools.FormatSize(int64(len(data)))),
		Images: []tools.Image{{MIMEType: mime, Data: data}},
		Raw:    ReadFileRaw{Path: c.abs, MIMEType: mime, Bytes: int64(len(data))},
	}, nil
}
