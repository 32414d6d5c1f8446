package mcpclient

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/sourcegraph/jsonrpc2"
)

// handler routes what the server sends on its own: notifications to the
// callback, in order on the read loop; requests each to a goroutine of
// their own, so that a slow answer (a question to the user) holds nothing
// up.
type handler struct{ c *Client }

// Handle implements jsonrpc2.Handler.
func (h handler) Handle(_ context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	c := h.c
	if req.Notif {
		c.notified(req)
		return
	}
	key := idKey(req.ID)
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(c.ctx)
	c.serving[key] = cancel
	c.wg.Add(1)
	c.mu.Unlock()
	go func() {
		defer c.wg.Done()
		defer func() {
			c.mu.Lock()
			delete(c.serving, key)
			c.mu.Unlock()
			cancel()
		}()
		c.answer(ctx, conn, req)
	}()
}

// answer runs the handler of req and sends its answer.
func (c *Client) answer(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) {
	var params json.RawMessage
	if req.Params != nil {
		params = *req.Params
	}
	var (
		res any
		err error
	)
	switch h, ok := c.o.handlers[req.Method]; {
	case req.Method == string(mcp.MethodPing):
		res = struct{}{}
	case ok:
		res, err = h(ctx, params)
	default:
		err = &Error{Code: mcp.METHOD_NOT_FOUND, Message: "method not found: " + req.Method}
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			e = &Error{Code: mcp.INTERNAL_ERROR, Message: err.Error()}
		}
		rpcErr := &jsonrpc2.Error{Code: e.Code, Message: e.Message}
		if e.Data != nil {
			data := e.Data
			rpcErr.Data = &data
		}
		err = conn.ReplyWithError(c.ctx, req.ID, rpcErr)
	} else {
		err = conn.Reply(c.ctx, req.ID, res)
	}
	if err != nil {
		c.log.Debug("mcp: answering the server failed", "method", req.Method, "err", err)
	}
}

// notified hands a notification to the callback; notifications/cancelled
// also ends the answer it names.
func (c *Client) notified(req *jsonrpc2.Request) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return
	}
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{Method: req.Method}}
	if req.Params != nil {
		if err := json.Unmarshal(*req.Params, &n.Params); err != nil {
			c.log.Debug("mcp: notification params unreadable", "method", req.Method, "err", err)
		}
	}
	if req.Method == string(mcp.MethodNotificationCancelled) && req.Params != nil {
		c.cancelServing(*req.Params)
	}
	if c.o.notify != nil {
		c.o.notify(n)
	}
}

// cancelServing cancels the answer of the request a
// notifications/cancelled names.
func (c *Client) cancelServing(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	var id jsonrpc2.ID
	if json.Unmarshal(p.RequestID, &id) != nil {
		return
	}
	c.mu.Lock()
	cancel := c.serving[idKey(id)]
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// idKey is the map key of a JSON-RPC id.
func idKey(id jsonrpc2.ID) string {
	b, _ := json.Marshal(id)
	return string(b)
}
