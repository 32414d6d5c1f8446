package lspclient

import (
	"context"
	"encoding/json"
	"path/filepath"

	"github.com/sourcegraph/jsonrpc2"
)

// handler answers what the server sends: diagnostics and log messages
// (notifications, handled in order on the read loop) and the few requests
// servers make of every client, answered at once.
type handler struct {
	opts Options
}

// Handle implements jsonrpc2.Handler.
func (h *handler) Handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Notif {
		h.notified(req)
		return
	}
	result, rpcErr := h.answer(req)
	if rpcErr != nil {
		_ = conn.ReplyWithError(ctx, req.ID, rpcErr)
		return
	}
	_ = conn.Reply(ctx, req.ID, result)
}

// notified handles one notification.
func (h *handler) notified(req *jsonrpc2.Request) {
	if req.Params == nil {
		return
	}
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p PublishDiagnostics
		if json.Unmarshal(*req.Params, &p) == nil && h.opts.OnDiagnostics != nil {
			h.opts.OnDiagnostics(p)
		}
	case "window/logMessage", "window/showMessage":
		var m struct {
			Message string `json:"message"`
		}
		_ = json.Unmarshal(*req.Params, &m)
		h.opts.Log.Debug("language server says", "method", req.Method, "text", m.Message)
	}
}

// answer is the result of a request from the server: empty settings for
// workspace/configuration, the root for workspace/workspaceFolders, yes
// to registrations and progress tokens, no to edits it wants applied
// (edits go through the agent's review), and "method not found" else.
func (h *handler) answer(req *jsonrpc2.Request) (any, *jsonrpc2.Error) {
	switch req.Method {
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		if req.Params != nil {
			_ = json.Unmarshal(*req.Params, &p)
		}
		return make([]any, len(p.Items)), nil
	case "workspace/workspaceFolders":
		return []WorkspaceFolder{{URI: FileURI(h.opts.Root), Name: filepath.Base(h.opts.Root)}}, nil
	case "client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create",
		"window/showMessageRequest":
		return nil, nil
	case "workspace/applyEdit":
		return map[string]any{"applied": false, "failureReason": "companion applies edits itself"}, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
}
