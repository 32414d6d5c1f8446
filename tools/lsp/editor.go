package lsp

import (
	"context"
	"errors"
	"time"

	"companion/ide"
	"companion/lspclient"
	"companion/tools"
)

// Editor is the client's editor when it answers language questions with
// its own language features (companion's VS Code extension and Neovim
// plugin do, through the acp layer's _companion/lsp): a request is an LSP
// request about one file, answered in LSP's shapes. The navigation tools,
// rename and the diagnostics after an edit ask it before a server, so no
// second server runs beside the editor's.
type Editor interface {
	// Language sends the LSP request method with params about the file
	// path and decodes the answer into out. ok is false when the editor
	// has no language features for path (ask a server instead).
	Language(ctx context.Context, path, method string, params, out any) (ok bool, err error)
}

// errNoEditorFeatures is an editor's "no language features for this
// file".
var errNoEditorFeatures = errors.New("the editor has no language features for the file")

// editorCaller is the editor as an lspclient.Caller for one file.
type editorCaller struct {
	ed   Editor
	path string
}

// Call implements lspclient.Caller.
func (e editorCaller) Call(ctx context.Context, method string, params, out any) error {
	ok, err := e.ed.Language(ctx, e.path, method, params, out)
	if err == nil && !ok {
		return errNoEditorFeatures
	}
	return err
}

// inEditor runs f with the editor's requests for path, when the session
// has an editor and it has language features for path; ok is false
// otherwise (or when it failed: the server is asked then).
func (s *Session) inEditor(ctx context.Context, path, text string, f fileFunc) (res *tools.Result, err error, ok bool) {
	if s.opts.Editor == nil {
		return nil, nil, false
	}
	ectx, cancel := context.WithTimeout(ctx, editorTimeout)
	defer cancel()
	res, err = f(ectx, lspclient.Requests{Caller: editorCaller{s.opts.Editor, path}}, text)
	switch {
	case err == nil:
		return res, nil, true
	case ctx.Err() != nil:
		return nil, ctx.Err(), true
	case !errors.Is(err, errNoEditorFeatures):
		s.pool.opts.Log.Debug("the editor's language features failed; asking a language server", "path", path, "err", err)
	}
	return nil, nil, false
}

// EditorDiagnoser is the editor as the agent's Diagnoser: the diagnostics
// its own language features report for a file just edited (the editor
// waits a moment for them to settle). It answers nothing (ok false) for
// a file the editor has no language features for, so that a server is
// asked. Nil when the session has no editor.
func (s *Session) EditorDiagnoser() *EditorDiagnoser {
	if s == nil || s.opts.Editor == nil {
		return nil
	}
	return &EditorDiagnoser{s: s}
}

// EditorDiagnoser asks the editor for a file's diagnostics.
type EditorDiagnoser struct{ s *Session }

// Diagnose implements the agent's Diagnoser.
func (e *EditorDiagnoser) Diagnose(ctx context.Context, path, _ string) ([]ide.Diagnostic, bool) {
	ctx, cancel := context.WithTimeout(ctx, e.s.opts.Wait+editorMargin)
	defer cancel()
	r := lspclient.Requests{Caller: editorCaller{e.s.opts.Editor, path}}
	list, err := r.DocumentDiagnostics(ctx, lspclient.DocumentID{URI: lspclient.FileURI(path)})
	if err != nil {
		if !errors.Is(err, errNoEditorFeatures) {
			e.s.pool.opts.Log.Debug("no diagnostics from the editor", "path", path, "err", err)
		}
		return nil, false
	}
	return toIDE(list), true
}

// editorTimeout bounds the editor's answer to a navigation request; past
// it the server is asked.
const editorTimeout = 10 * time.Second

// editorMargin is added to the wait for diagnostics when the editor is
// asked: it waits up to about a second itself, and the answer travels.
const editorMargin = 500 * time.Millisecond
