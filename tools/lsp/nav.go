package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"

	"companion/lspclient"
	"companion/tools"
)

// navCall is one call of a navigation tool: read-only, never asked about.
type navCall struct {
	title string
	path  string
	run   func(ctx context.Context) (*tools.Result, error)
}

func (c *navCall) Title() string                                             { return c.title }
func (c *navCall) Locations() []tools.Location                               { return []tools.Location{{Path: c.path}} }
func (c *navCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }
func (c *navCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	return c.run(ctx)
}

// fileFunc is a navigation request: f asks r about a file whose text
// (from disk) is text.
type fileFunc func(ctx context.Context, r lspclient.Requests, text string) (*tools.Result, error)

// onFile runs f with the requests of whoever answers for path: the
// editor when it has language features for the file, else the file's
// server, the file opened on it with its text from disk. A problem the
// model can fix (no one serves the file, a missing file, a server down)
// comes back as an error result.
func (s *Session) onFile(ctx context.Context, path string, f fileFunc) (*tools.Result, error) {
	srv, root, served := s.serverFor(path)
	if !served && s.opts.Editor == nil {
		return tools.ErrorResult("no language server serves " + path + "; use grep or read_file instead"), nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return tools.ErrorResult(fmt.Sprintf("cannot read %s: %v", path, err)), nil
	}
	if res, err, ok := s.inEditor(ctx, path, string(data), f); ok {
		return res, err
	}
	if !served {
		return tools.ErrorResult("neither a language server nor the editor serves " + path + "; use grep or read_file instead"), nil
	}
	var res *tools.Result
	err = s.pool.use(ctx, srv, root, s.opts.Wrap, func(in *instance) error {
		doc, err := in.openDocument(ctx, path, string(data))
		if err != nil {
			return err
		}
		defer doc.close()
		res, err = f(ctx, in.client.Requests, string(data))
		return err
	})
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(err, ErrUnavailable), errors.Is(err, lspclient.ErrServer):
		return tools.ErrorResult(fmt.Sprintf("%s cannot answer now: %v", srv.Name, err)), nil
	case err != nil:
		return tools.ErrorResult(fmt.Sprintf("%s failed: %v", srv.Name, err)), nil
	}
	return res, nil
}

// atSymbol runs f at symbol on the 1-based line of path.
func (s *Session) atSymbol(ctx context.Context, path string, line int, symbol string,
	f func(ctx context.Context, r lspclient.Requests, at lspclient.PositionParams) (*tools.Result, error)) (*tools.Result, error) {
	return s.onFile(ctx, path, func(ctx context.Context, r lspclient.Requests, text string) (*tools.Result, error) {
		pos, err := findSymbol(text, line, symbol)
		if err != nil {
			return tools.ErrorResult(err.Error()), nil
		}
		return f(ctx, r, lspclient.PositionParams{TextDocument: lspclient.DocumentID{URI: lspclient.FileURI(path)}, Position: pos})
	})
}

// spotsResult lists spots, or says none was found.
func (s *Session) spotsResult(what string, spots []spot) *tools.Result {
	if len(spots) == 0 {
		return &tools.Result{Text: "No " + what + " found."}
	}
	return &tools.Result{Text: renderSpots(s.opts.Roots, spots)}
}
