package acp

import (
	"bytes"
	"context"
	"encoding/json"

	"companion/rpc"
)

// MethodLanguage is companion's extension request to the client: one LSP
// request about one file, answered by the editor's own language features
// (see the package doc, "Extensions"). A client offers it with
// clientCapabilities._meta.companion.lsp = true.
const MethodLanguage = "_companion/lsp"

// LanguageRequest is one LSP request for the editor: Method and Params
// as a language server would get them (textDocument/definition,
// textDocument/references, textDocument/hover,
// textDocument/documentSymbol, workspace/symbol, textDocument/rename,
// textDocument/diagnostic), about the file at Path.
type LanguageRequest struct {
	SessionID SessionID `json:"sessionId"`
	Path      string    `json:"path"`
	Method    string    `json:"method"`
	Params    any       `json:"params"`
}

// LanguageResponse is the editor's answer: Available false when it has
// no language features for the file (companion then asks a language
// server), else Result as a language server would answer Method.
type LanguageResponse struct {
	Available bool            `json:"available"`
	Result    json.RawMessage `json:"result,omitempty"`
}

// offersLanguage reports whether the client advertised _companion/lsp.
func offersLanguage(caps ClientCapabilities) bool {
	m, _ := caps.Meta["companion"].(map[string]any)
	on, _ := m["lsp"].(bool)
	return on
}

// language is the editor's language features for one session (the
// host's lsp.Editor).
type language struct {
	conn *rpc.Conn
	id   SessionID
}

// Language implements lsp.Editor.
func (l *language) Language(ctx context.Context, path, method string, params, out any) (bool, error) {
	var resp LanguageResponse
	req := LanguageRequest{SessionID: l.id, Path: path, Method: method, Params: params}
	if err := l.conn.Call(ctx, MethodLanguage, req, &resp); err != nil {
		return false, err
	}
	if !resp.Available {
		return false, nil
	}
	if r := bytes.TrimSpace(resp.Result); len(r) == 0 || bytes.Equal(r, []byte("null")) {
		return true, nil
	}
	return true, json.Unmarshal(resp.Result, out)
}
