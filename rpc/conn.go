package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// cancelMethod is the notification either side sends to cancel a request.
const cancelMethod = "$/cancel_request"

// Conn is one side of a JSON-RPC 2.0 connection. It serves the peer's
// requests and notifications with a Handler and sends its own with Call and
// Notify; both directions run at once. Create it with NewConn.
type Conn struct {
	h     Handler
	log   *slog.Logger
	s     *stream
	rpc   *jsonrpc2.Conn
	notes chan note
	// base is the parent of every handler context; cancelled on close.
	base       context.Context
	cancelBase context.CancelFunc
	closing    chan struct{} // closed when the connection closes
	done       chan struct{} // closed when shutdown is complete
	nextID     atomic.Uint64

	// mu guards closed and inflight, and orders wg.Add before wg.Wait.
	mu       sync.Mutex
	closed   bool
	inflight map[string]*inflight // by idKey of the peer's request id
	wg       sync.WaitGroup       // handler goroutines and the notification loop
	reqs     sync.WaitGroup       // request handler goroutines only
	drainFor time.Duration
	inline   map[string]bool // methods served on the read goroutine
}

// NewConn starts serving rwc with h and returns the connection. It owns rwc
// from then on and closes it when the connection ends: on end of input, on a
// read error, on Close, or when ctx is done. Handler contexts derive from ctx.
func NewConn(ctx context.Context, rwc io.ReadWriteCloser, h Handler, opts Options) *Conn {
	o := opts.withDefaults()
	c := &Conn{
		h:        h,
		log:      o.Logger,
		s:        newStream(rwc, o),
		notes:    make(chan note, o.NotificationQueue),
		closing:  make(chan struct{}),
		done:     make(chan struct{}),
		inflight: map[string]*inflight{},
	}
	c.base, c.cancelBase = context.WithCancel(ctx)
	c.drainFor = o.DrainTimeout
	c.inline = map[string]bool{}
	for _, m := range o.Inline {
		c.inline[m] = true
	}
	c.s.drain = c.drain
	c.rpc = jsonrpc2.NewConn(c.base, c.s, dispatcher{c}, jsonrpc2.SetLogger(printfLogger{c.log}))
	c.wg.Add(1)
	go c.notificationLoop()
	go c.watch()
	close(c.s.start)
	return c
}

// Call sends a request and waits for its response, decoding the result into
// result (a pointer; nil discards it; a JSON null result leaves it as is).
// An error response is returned as *Error. If ctx ends first, Call sends
// "$/cancel_request" for the request, drops any late response and returns
// an error wrapping ctx.Err().
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("rpc: call %s: %w", method, err)
	}
	id := c.nextID.Add(1)
	w, err := c.rpc.DispatchCall(ctx, method, params, jsonrpc2.PickID(jsonrpc2.ID{Num: id}))
	if err != nil {
		return c.sendError("call "+method, err)
	}
	var raw json.RawMessage
	err = w.Wait(ctx, &raw)
	if err == nil {
		if result == nil {
			return nil
		}
		if err := json.Unmarshal(raw, result); err != nil {
			return fmt.Errorf("rpc: decode result of %s: %w", method, err)
		}
		return nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
		c.cancelCall(id)
		return fmt.Errorf("rpc: call %s: %w", method, err)
	}
	if e, ok := errors.AsType[*jsonrpc2.Error](err); ok {
		return fromJSONRPC2(e)
	}
	return c.sendError("call "+method, err)
}

// cancelCall tells the peer to stop working on request id.
func (c *Conn) cancelCall(id uint64) {
	params := struct {
		RequestID uint64 `json:"requestId"`
	}{id}
	if err := c.Notify(context.WithoutCancel(c.base), cancelMethod, params); err != nil {
		c.log.Debug("rpc: cannot send $/cancel_request", "id", id, "err", err)
	}
}

// Notify sends a notification and returns once its bytes are written, so a
// handler's notifications always precede its response on the wire.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("rpc: notify %s: %w", method, err)
	}
	select {
	case <-c.closing:
		return fmt.Errorf("rpc: notify %s: %w", method, ErrClosed)
	default:
	}
	data, err := encodeNotification(method, params)
	if err != nil {
		return fmt.Errorf("rpc: notify %s: %w", method, err)
	}
	// Written straight to the stream: notifications sit on the streaming hot
	// path, and going through jsonrpc2 would encode the params three times.
	data = c.s.redacted(data)
	c.s.trace("out", "notification", method, nil, len(data))
	if err := c.s.write(data); err != nil {
		return c.sendError("notify "+method, err)
	}
	return nil
}

// encodeNotification encodes a JSON-RPC notification once.
func encodeNotification(method string, params any) ([]byte, error) {
	m, err := json.Marshal(method)
	if err != nil {
		return nil, err
	}
	buf := make([]byte, 0, 256)
	buf = append(buf, `{"jsonrpc":"2.0","method":`...)
	buf = append(buf, m...)
	switch p := params.(type) {
	case nil:
	case json.RawMessage:
		// Already encoded by the caller (a hot path): trusted to be compact.
		buf = append(buf, `,"params":`...)
		buf = append(buf, p...)
	default:
		data, err := json.Marshal(p)
		if err != nil {
			return nil, err
		}
		buf = append(buf, `,"params":`...)
		buf = append(buf, data...)
	}
	return append(buf, '}'), nil
}

// Done returns a channel closed once the connection has closed, every
// handler context is cancelled and every handler has returned.
func (c *Conn) Done() <-chan struct{} {
	return c.done
}

// Close closes the connection and the underlying ReadWriteCloser. It does
// not wait for handlers; wait on Done for that. Closing twice is a no-op.
func (c *Conn) Close() error {
	err := c.rpc.Close()
	if errors.Is(err, jsonrpc2.ErrClosed) {
		return nil
	}
	return err
}

// drain runs when the input ends: it cancels the requests in flight and
// gives their handlers up to drainFor to send their answers (a cancelled
// ACP prompt still answers "cancelled"), so a peer that closes its end
// after sending still gets every response that can be made.
func (c *Conn) drain() {
	c.mu.Lock()
	for _, r := range c.inflight {
		r.cancel()
	}
	c.mu.Unlock()
	done := make(chan struct{})
	go func() { c.reqs.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(c.drainFor):
		c.log.Warn("rpc: requests still running after the input ended", "waited", c.drainFor)
	}
}

// watch shuts down once jsonrpc2 reports the connection closed.
func (c *Conn) watch() {
	<-c.rpc.DisconnectNotify()
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cancelBase()
	close(c.closing)
	c.wg.Wait()
	c.log.Debug("rpc: connection closed")
	close(c.done)
}

// sendError maps an error from jsonrpc2's send path to ours.
func (c *Conn) sendError(what string, err error) error {
	if errors.Is(err, jsonrpc2.ErrClosed) {
		return fmt.Errorf("rpc: %s: %w", what, ErrClosed)
	}
	select {
	case <-c.closing:
		return fmt.Errorf("rpc: %s: %w (%v)", what, ErrClosed, err)
	default:
	}
	return fmt.Errorf("rpc: %s: %w", what, err)
}

// fromJSONRPC2 converts an error response decoded by jsonrpc2.
func fromJSONRPC2(e *jsonrpc2.Error) *Error {
	out := &Error{Code: e.Code, Message: e.Message}
	if e.Data != nil {
		out.Data = *e.Data
	}
	return out
}

// printfLogger sends jsonrpc2's own log lines to slog at Debug level.
type printfLogger struct{ log *slog.Logger }

// Printf implements jsonrpc2.Logger.
func (p printfLogger) Printf(format string, args ...any) {
	p.log.Debug(strings.TrimSpace(fmt.Sprintf(format, args...)))
}
