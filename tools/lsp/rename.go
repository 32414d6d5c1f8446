package lsp

import (
	"cmp"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"companion/lspclient"
	"companion/tools"
)

//go:embed descriptions/lsp_rename.md
var renameDescription string

// renameParams name a symbol by its line, and its new name.
type renameParams struct {
	FilePath string `json:"file_path" required:"true" desc:"The file the symbol appears in: absolute, or relative to the session root."`
	Line     int    `json:"line" required:"true" desc:"The 1-based line the symbol appears on."`
	Symbol   string `json:"symbol" required:"true" desc:"The symbol's name as written on that line."`
	NewName  string `json:"new_name" required:"true" desc:"The new name."`
}

// renameTool renames a symbol everywhere through the language server, as
// one edit of every file it touches.
func (s *Session) renameTool() tools.Tool {
	return tools.Define(tools.Def[renameParams]{Name: "lsp_rename", Kind: tools.KindEdit, Description: renameDescription,
		Prepare: func(env *tools.Env, p renameParams) (tools.Invocation, error) {
			if strings.TrimSpace(p.Symbol) == "" || strings.TrimSpace(p.NewName) == "" {
				return nil, tools.ArgErrorf("parameters %q and %q must not be empty", "symbol", "new_name")
			}
			abs, err := env.Roots.Abs(p.FilePath)
			if err != nil {
				return nil, err
			}
			return &renameCall{s: s, env: env, abs: abs, p: p}, nil
		}})
}

// renameCall is one rename: the edit is worked out once, by Confirmation
// (or Execute, when nothing asked), and the files written as planned.
type renameCall struct {
	s    *Session
	env  *tools.Env
	abs  string
	p    renameParams
	plan []tools.Diff
}

func (c *renameCall) Title() string {
	return fmt.Sprintf("Rename %s to %s (from %s)", c.p.Symbol, c.p.NewName, c.env.Roots.Display(c.abs))
}

// Locations are the files the rename changes once planned (the
// checkpoint saves them all), else the file named.
func (c *renameCall) Locations() []tools.Location {
	if len(c.plan) == 0 {
		return []tools.Location{{Path: c.abs, Line: c.p.Line}}
	}
	out := make([]tools.Location, 0, len(c.plan))
	for _, d := range c.plan {
		out = append(out, tools.Location{Path: d.Path})
	}
	return out
}

// Confirmation shows every file's diff; no "always" answer fits a rename.
func (c *renameCall) Confirmation(ctx context.Context) (*tools.Confirmation, error) {
	if err := c.planOnce(ctx); err != nil {
		return nil, err
	}
	first := c.plan[0]
	return &tools.Confirmation{Type: tools.ConfirmEdit, Title: c.Title(), Path: first.Path, OldText: first.OldText,
		NewText: first.NewText, More: c.plan[1:], OnceOnly: true}, nil
}

// Execute writes every file of the plan.
func (c *renameCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if err := c.planOnce(ctx); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return tools.ErrorResult(err.Error()), nil
	}
	names := make([]string, 0, len(c.plan))
	for _, d := range c.plan {
		if err := c.write(ctx, d); err != nil {
			return tools.ErrorResult(fmt.Sprintf("renamed in %s, then could not write %s: %v", strings.Join(names, ", "), c.env.Roots.Display(d.Path), err)), nil
		}
		names = append(names, c.env.Roots.Display(d.Path))
	}
	text := fmt.Sprintf("Renamed %s to %s in %d files: %s.", c.p.Symbol, c.p.NewName, len(names), strings.Join(names, ", "))
	return &tools.Result{Text: text, Diff: &c.plan[0], More: c.plan[1:]}, nil
}

// write writes one file, through the editor when it offers itself.
func (c *renameCall) write(ctx context.Context, d tools.Diff) error {
	if c.env.Files != nil {
		return c.env.Files.WriteTextFile(ctx, d.Path, d.NewText)
	}
	return tools.WriteLocal(c.env.Roots, d.Path, d.NewText, 0o644, true)
}

// planOnce asks the server for the rename's edit, once.
func (c *renameCall) planOnce(ctx context.Context) error {
	if c.plan != nil {
		return nil
	}
	edit, err := c.s.renameEdit(ctx, c.abs, c.p.Line, c.p.Symbol, c.p.NewName)
	if err != nil {
		return err
	}
	plan, err := applyWorkspaceEdit(c.env.Roots, edit)
	if err != nil {
		return err
	}
	if len(plan) == 0 {
		return fmt.Errorf("the language server found nothing to rename for %s on line %d", c.p.Symbol, c.p.Line)
	}
	c.plan = plan
	return nil
}

// renameEdit asks for the edit renaming symbol: the editor when it has
// language features for path (its rename provider), else path's server.
func (s *Session) renameEdit(ctx context.Context, path string, line int, symbol, newName string) (*lspclient.WorkspaceEdit, error) {
	var edit *lspclient.WorkspaceEdit
	res, err := s.atSymbol(ctx, path, line, symbol, func(ctx context.Context, r lspclient.Requests, at lspclient.PositionParams) (*tools.Result, error) {
		e, err := r.Rename(ctx, at, newName)
		edit = e
		return &tools.Result{}, err
	})
	switch {
	case err != nil:
		return nil, err
	case res.IsError:
		return nil, errors.New(res.Text)
	}
	return edit, nil
}

// applyWorkspaceEdit works out each file's new text, sorted by path. A
// file outside the roots, or an edit that creates, renames or deletes
// files, is refused.
func applyWorkspaceEdit(roots *tools.Roots, edit *lspclient.WorkspaceEdit) ([]tools.Diff, error) {
	if edit == nil {
		return nil, nil
	}
	byURI := map[string][]lspclient.TextEdit{}
	for uri, edits := range edit.Changes {
		byURI[uri] = append(byURI[uri], edits...)
	}
	for _, dc := range edit.DocumentChanges {
		if dc.TextDocument.URI == "" {
			return nil, errors.New("the rename would create, rename or delete files, which this tool does not do")
		}
		byURI[dc.TextDocument.URI] = append(byURI[dc.TextDocument.URI], dc.Edits...)
	}
	var out []tools.Diff
	for uri, edits := range byURI {
		path, ok := lspclient.FilePath(uri)
		if !ok || !roots.Contains(path) {
			return nil, fmt.Errorf("the rename would change %s, outside the workspace", uri)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		old := string(data)
		text, err := applyEdits(old, edits)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, tools.Diff{Path: path, OldText: &old, NewText: text})
	}
	slices.SortFunc(out, func(a, b tools.Diff) int { return cmp.Compare(a.Path, b.Path) })
	return out, nil
}
