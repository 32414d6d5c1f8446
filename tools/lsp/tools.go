package lsp

import (
	"context"
	_ "embed"
	"strings"

	"companion/lspclient"
	"companion/tools"
)

//go:embed descriptions/lsp_definition.md
var definitionDescription string

//go:embed descriptions/lsp_references.md
var referencesDescription string

//go:embed descriptions/lsp_hover.md
var hoverDescription string

//go:embed descriptions/lsp_symbols.md
var symbolsDescription string

// symbolParams name a symbol by the line it is on.
type symbolParams struct {
	FilePath string `json:"file_path" required:"true" desc:"The file the symbol appears in: absolute, or relative to the session root."`
	Line     int    `json:"line" required:"true" desc:"The 1-based line the symbol appears on."`
	Symbol   string `json:"symbol" required:"true" desc:"The symbol's name as written on that line, e.g. \"NewServer\"."`
}

// symbolsParams ask for a file's symbols, or the workspace's matching a
// query.
type symbolsParams struct {
	FilePath string `json:"file_path" required:"true" desc:"A file: absolute, or relative to the session root. Without query, its symbols are listed; with query, it picks the project (and language) to search."`
	Query    string `json:"query" desc:"Search the whole workspace for symbols whose names match this text."`
}

// Tools are the session's language tools: definition, references,
// hover, document or workspace symbols, and rename.
func (s *Session) Tools() []tools.Tool {
	return []tools.Tool{
		s.symbolTool("lsp_definition", definitionDescription, "Definition of", s.definition),
		s.symbolTool("lsp_references", referencesDescription, "References to", s.references),
		s.symbolTool("lsp_hover", hoverDescription, "Hover", s.hover),
		tools.Define(tools.Def[symbolsParams]{Name: "lsp_symbols", Kind: tools.KindSearch, Description: symbolsDescription,
			Prepare: func(env *tools.Env, p symbolsParams) (tools.Invocation, error) {
				abs, err := env.Roots.Abs(p.FilePath)
				if err != nil {
					return nil, err
				}
				title := "Symbols of " + env.Roots.Display(abs)
				if p.Query != "" {
					title = "Workspace symbols matching " + p.Query
				}
				return &navCall{title: title, path: abs, run: func(ctx context.Context) (*tools.Result, error) {
					return s.symbols(ctx, abs, p.Query)
				}}, nil
			}}),
		s.renameTool(),
	}
}

// symbolTool makes a tool that acts at a symbol.
func (s *Session) symbolTool(name, desc, verb string, run func(context.Context, string, symbolParams) (*tools.Result, error)) tools.Tool {
	return tools.Define(tools.Def[symbolParams]{Name: name, Kind: tools.KindSearch, Description: desc,
		Prepare: func(env *tools.Env, p symbolParams) (tools.Invocation, error) {
			if strings.TrimSpace(p.Symbol) == "" {
				return nil, tools.ArgErrorf("parameter %q must not be empty", "symbol")
			}
			abs, err := env.Roots.Abs(p.FilePath)
			if err != nil {
				return nil, err
			}
			return &navCall{title: verb + " " + p.Symbol + " in " + env.Roots.Display(abs), path: abs,
				run: func(ctx context.Context) (*tools.Result, error) { return run(ctx, abs, p) }}, nil
		}})
}

// definition lists where the symbol is defined.
func (s *Session) definition(ctx context.Context, path string, p symbolParams) (*tools.Result, error) {
	return s.atSymbol(ctx, path, p.Line, p.Symbol, func(ctx context.Context, c lspclient.Requests, at lspclient.PositionParams) (*tools.Result, error) {
		locs, err := c.Definition(ctx, at)
		if err != nil {
			return nil, err
		}
		return s.spotsResult("definition of "+p.Symbol, spotsOf(locs)), nil
	})
}

// references lists where the symbol is used, its declaration included.
func (s *Session) references(ctx context.Context, path string, p symbolParams) (*tools.Result, error) {
	return s.atSymbol(ctx, path, p.Line, p.Symbol, func(ctx context.Context, c lspclient.Requests, at lspclient.PositionParams) (*tools.Result, error) {
		locs, err := c.References(ctx, at)
		if err != nil {
			return nil, err
		}
		return s.spotsResult("references to "+p.Symbol, spotsOf(locs)), nil
	})
}

// hover tells the symbol's type and documentation.
func (s *Session) hover(ctx context.Context, path string, p symbolParams) (*tools.Result, error) {
	return s.atSymbol(ctx, path, p.Line, p.Symbol, func(ctx context.Context, c lspclient.Requests, at lspclient.PositionParams) (*tools.Result, error) {
		text, err := c.Hover(ctx, at)
		if err != nil {
			return nil, err
		}
		if text == "" {
			return &tools.Result{Text: "There is no hover information for " + p.Symbol + "."}, nil
		}
		return &tools.Result{Text: clipHover(text)}, nil
	})
}

// maxHover bounds a hover answer.
const maxHover = 4000

// clipHover shortens a long hover answer.
func clipHover(s string) string {
	if len(s) <= maxHover {
		return s
	}
	cut := maxHover
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "\n… (cut)"
}

// symbols lists a file's symbols, or the workspace's matching query.
func (s *Session) symbols(ctx context.Context, path, query string) (*tools.Result, error) {
	return s.onFile(ctx, path, func(ctx context.Context, c lspclient.Requests, _ string) (*tools.Result, error) {
		if query != "" {
			infos, err := c.WorkspaceSymbols(ctx, query)
			if err != nil {
				return nil, err
			}
			spots := make([]spot, 0, len(infos))
			for _, in := range infos {
				for _, sp := range spotsOf([]lspclient.Location{in.Location}) {
					sp.label = symbolKind(in.Kind) + " " + qualified(in.ContainerName, in.Name)
					spots = append(spots, sp)
				}
			}
			return s.spotsResult("symbols matching "+query, spots), nil
		}
		syms, err := c.DocumentSymbols(ctx, lspclient.DocumentID{URI: lspclient.FileURI(path)})
		if err != nil {
			return nil, err
		}
		return s.spotsResult("symbols", documentSpots(path, "", syms)), nil
	})
}

// qualified is container.name, or name alone.
func qualified(container, name string) string {
	if container == "" {
		return name
	}
	return container + "." + name
}
