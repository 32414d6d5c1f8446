package rpc

import (
	"context"
	"encoding/json"
	"runtime/debug"

	"github.com/sourcegraph/jsonrpc2"
)

// Handler serves one side of a connection.
//
// HandleRequest runs on its own goroutine per request, with a context that
// is cancelled by "$/cancel_request", by the connection closing and when the
// response has been sent. Its result is marshalled with encoding/json (nil
// becomes {}); its error is mapped with ToWire; a panic becomes -32603.
//
// HandleNotification runs for one notification at a time, in arrival order,
// on one goroutine, with a context cancelled when the connection closes. It
// should not wait for a Call's response: while it runs and the queue is
// full, the connection reads nothing.
//
// Both must return soon after their context is cancelled: Conn.Done waits
// for them.
type Handler interface {
	HandleRequest(ctx context.Context, c *Conn, method string, params json.RawMessage) (any, error)
	HandleNotification(ctx context.Context, c *Conn, method string, params json.RawMessage)
}

// note is a queued notification.
type note struct {
	method string
	params json.RawMessage
}

// inflight is a request being served.
type inflight struct {
	cancel context.CancelFunc
}

// dispatcher is the jsonrpc2.Handler of a Conn. jsonrpc2 calls it in its
// read loop, right after the stream's ReadObject, so it never blocks except
// on a full notification queue.
type dispatcher struct{ c *Conn }

// Handle implements jsonrpc2.Handler: requests start on their own
// goroutine, "$/cancel_request" is acted on at once, other notifications
// are queued.
func (d dispatcher) Handle(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) {
	c := d.c
	m := c.s.take()
	if m.method != req.Method {
		// Only if jsonrpc2 stopped calling handlers synchronously.
		c.log.Error("rpc: message stash out of step with jsonrpc2", "method", req.Method)
		return
	}
	switch {
	case !req.Notif:
		c.startRequest(req.ID, m)
	case m.method == cancelMethod:
		c.cancelInbound(m.params)
	case c.inline[m.method]:
		// Quick notifications a following request must find applied.
		c.h.HandleNotification(c.base, c, m.method, m.params)
	default:
		select {
		case c.notes <- note{method: m.method, params: m.params}:
		case <-c.closing:
		}
	}
}

// startRequest serves one request on a goroutine of its own, or on the
// reading goroutine for Options.Inline methods.
func (c *Conn) startRequest(id jsonrpc2.ID, m message) {
	ctx, key, r, ok := c.register(m)
	if !ok {
		return
	}
	if c.inline[m.method] {
		c.serve(ctx, id, m, key, r)
		return
	}
	go c.serve(ctx, id, m, key, r)
}

// register records a request in flight and gives it its context; it
// reports false once the connection is closed.
func (c *Conn) register(m message) (context.Context, string, *inflight, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, "", nil, false
	}
	ctx, cancel := context.WithCancel(c.base)
	key := idKey(m.id)
	r := &inflight{cancel: cancel}
	if _, dup := c.inflight[key]; dup {
		c.log.Warn("rpc: peer reused the id of a request in flight", "id", key)
	}
	c.inflight[key] = r
	c.wg.Add(1)
	c.reqs.Add(1)
	return ctx, key, r, true
}

// serve runs the handler for one request and sends its response.
func (c *Conn) serve(ctx context.Context, id jsonrpc2.ID, m message, key string, r *inflight) {
	defer c.wg.Done()
	defer c.reqs.Done()
	defer func() {
		c.mu.Lock()
		if c.inflight[key] == r {
			delete(c.inflight, key)
		}
		c.mu.Unlock()
		r.cancel()
	}()
	ctx, after := withAfterReply(ctx)
	result, err := c.runRequest(ctx, m)
	resp := c.response(id, result, err)
	if err := c.rpc.SendResponse(context.WithoutCancel(ctx), resp); err != nil {
		c.log.Debug("rpc: cannot send response", "method", m.method, "id", string(m.id), "err", err)
	}
	after.run(func(p any) {
		c.log.Error("rpc: after-reply hook panicked", "method", m.method, "panic", p, "stack", string(debug.Stack()))
	})
}

// runRequest calls the handler, turning a panic into -32603.
func (c *Conn) runRequest(ctx context.Context, m message) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("rpc: request handler panicked", "method", m.method, "panic", p, "stack", string(debug.Stack()))
			result, err = nil, Errorf(CodeInternalError, "internal error while handling %s", m.method)
		}
	}()
	return c.h.HandleRequest(ctx, c, m.method, m.params)
}

// emptyResult is sent for a nil or null result: ACP peers reject a missing
// or null result.
var emptyResult = json.RawMessage("{}")

// response builds the response to send for a handler's outcome.
func (c *Conn) response(id jsonrpc2.ID, result any, err error) *jsonrpc2.Response {
	resp := &jsonrpc2.Response{ID: id}
	if err != nil {
		resp.Error = c.wireError(ToWire(err))
		return resp
	}
	data, merr := json.Marshal(result)
	if merr != nil {
		resp.Error = c.wireError(Errorf(CodeInternalError, "cannot encode the result: %v", merr))
		return resp
	}
	if string(data) == "null" {
		data = emptyResult
	}
	resp.Result = (*json.RawMessage)(&data)
	return resp
}

// wireError converts e for jsonrpc2, dropping Data that cannot be encoded.
func (c *Conn) wireError(e *Error) *jsonrpc2.Error {
	out := &jsonrpc2.Error{Code: e.Code, Message: e.Message}
	if e.Data == nil {
		return out
	}
	data, err := json.Marshal(e.Data)
	if err != nil {
		c.log.Warn("rpc: dropping error data that cannot be encoded", "code", e.Code, "err", err)
		return out
	}
	out.Data = (*json.RawMessage)(&data)
	return out
}

// notificationLoop handles queued notifications one at a time, in order.
func (c *Conn) notificationLoop() {
	defer c.wg.Done()
	for {
		select {
		case <-c.closing:
			return
		case n := <-c.notes:
			c.runNotification(n)
		}
	}
}

// runNotification calls the handler, logging a panic.
func (c *Conn) runNotification(n note) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("rpc: notification handler panicked", "method", n.method, "panic", p, "stack", string(debug.Stack()))
		}
	}()
	c.h.HandleNotification(c.base, c, n.method, n.params)
}

// cancelInbound handles "$/cancel_request": it cancels the context of the
// request it names, if that request is still being served.
func (c *Conn) cancelInbound(params json.RawMessage) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if err := json.Unmarshal(params, &p); err != nil || p.RequestID == nil || !validID(p.RequestID) {
		c.log.Debug("rpc: ignoring $/cancel_request without a valid requestId", "bytes", len(params))
		return
	}
	key := idKey(p.RequestID)
	c.mu.Lock()
	r := c.inflight[key]
	c.mu.Unlock()
	if r == nil {
		c.log.Debug("rpc: $/cancel_request for no request in flight", "id", key)
		return
	}
	r.cancel()
}
