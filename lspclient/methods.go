package lspclient

import (
	"context"
	"encoding/json"
	"strings"
)

// DidOpen tells the server a document is open with its text.
func (c *Client) DidOpen(ctx context.Context, doc TextDocumentItem) error {
	return c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": doc})
}

// DidChange replaces an open document's whole text at version.
func (c *Client) DidChange(ctx context.Context, doc VersionedDocumentID, text string) error {
	return c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument": doc, "contentChanges": []contentChange{{Text: text}}})
}

// DidClose tells the server a document is no longer open.
func (c *Client) DidClose(ctx context.Context, doc DocumentID) error {
	return c.conn.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": doc})
}

// Caller sends one LSP request and decodes its answer into out: a
// server's connection (Client.Call), or an editor answering with its own
// language features.
type Caller interface {
	Call(ctx context.Context, method string, params, out any) error
}

// Requests are the requests companion makes of a language server, over
// any Caller, so that whoever answers them (a server, an editor) is read
// the same way.
type Requests struct{ Caller }

// Definition returns where the symbol at a position is defined.
func (r Requests) Definition(ctx context.Context, at PositionParams) ([]Location, error) {
	var raw json.RawMessage
	if err := r.Call(ctx, "textDocument/definition", at, &raw); err != nil {
		return nil, err
	}
	return decodeLocations(raw)
}

// References returns where the symbol at a position is used, its
// declaration included.
func (r Requests) References(ctx context.Context, at PositionParams) ([]Location, error) {
	params := struct {
		PositionParams
		Context struct {
			IncludeDeclaration bool `json:"includeDeclaration"`
		} `json:"context"`
	}{PositionParams: at}
	params.Context.IncludeDeclaration = true
	var out []Location
	err := r.Call(ctx, "textDocument/references", params, &out)
	return out, err
}

// Hover returns the type and documentation of the symbol at a position
// as text; "" when the server has none.
func (r Requests) Hover(ctx context.Context, at PositionParams) (string, error) {
	var h *Hover
	if err := r.Call(ctx, "textDocument/hover", at, &h); err != nil || h == nil {
		return "", err
	}
	return HoverText(h.Contents), nil
}

// DocumentSymbols returns the symbols of a document.
func (r Requests) DocumentSymbols(ctx context.Context, doc DocumentID) ([]DocumentSymbol, error) {
	var out []DocumentSymbol
	err := r.Call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": doc}, &out)
	return out, err
}

// WorkspaceSymbols returns the symbols of the workspace matching query.
func (r Requests) WorkspaceSymbols(ctx context.Context, query string) ([]SymbolInformation, error) {
	var out []SymbolInformation
	err := r.Call(ctx, "workspace/symbol", map[string]any{"query": query}, &out)
	return out, err
}

// Rename returns the edit that renames the symbol at a position; the
// caller applies it.
func (r Requests) Rename(ctx context.Context, at PositionParams, newName string) (*WorkspaceEdit, error) {
	params := struct {
		PositionParams
		NewName string `json:"newName"`
	}{at, newName}
	var out *WorkspaceEdit
	err := r.Call(ctx, "textDocument/rename", params, &out)
	return out, err
}

// DocumentDiagnostics pulls a document's diagnostics
// (textDocument/diagnostic); an answer other than a full report (an
// "unchanged" one) has none.
func (r Requests) DocumentDiagnostics(ctx context.Context, doc DocumentID) ([]Diagnostic, error) {
	var out struct {
		Kind  string       `json:"kind"`
		Items []Diagnostic `json:"items"`
	}
	err := r.Call(ctx, "textDocument/diagnostic", map[string]any{"textDocument": doc}, &out)
	return out.Items, err
}

// decodeLocations reads a definition answer: null, a Location, or a list
// of Locations or LocationLinks.
func decodeLocations(raw json.RawMessage) ([]Location, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil, nil
	}
	var list []locationOrLink
	if strings.HasPrefix(s, "[") {
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
	} else {
		var one locationOrLink
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, err
		}
		list = append(list, one)
	}
	out := make([]Location, 0, len(list))
	for _, l := range list {
		out = append(out, l.location())
	}
	return out, nil
}

// HoverText flattens hover contents (MarkupContent, a MarkedString, or a
// list of MarkedStrings) to text.
func HoverText(raw json.RawMessage) string {
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return strings.TrimSpace(str)
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		parts := make([]string, 0, len(list))
		for _, item := range list {
			if t := HoverText(item); t != "" {
				parts = append(parts, t)
			}
		}
		return strings.Join(parts, "\n\n")
	}
	var markup struct {
		Value string `json:"value"`
	}
	_ = json.Unmarshal(raw, &markup)
	return strings.TrimSpace(markup.Value)
}
