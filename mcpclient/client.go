package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/sourcegraph/jsonrpc2"
)

// Client is one MCP session with a server over a Transport. Start it, then
// Initialize, then make requests; Close ends it. Its methods are safe for
// concurrent use.
type Client struct {
	tr  Transport
	o   options
	log *slog.Logger

	// ctx ends with Close; server requests being answered run under it.
	ctx    context.Context
	cancel context.CancelFunc
	// in and conn exist once Start succeeded.
	in     *inbox
	conn   *jsonrpc2.Conn
	nextID atomic.Uint64
	// wg counts the client's goroutines: the watcher and the answers to
	// server requests.
	wg        sync.WaitGroup
	closeOnce sync.Once

	// mu guards the fields below.
	mu sync.Mutex
	// pending holds the ids of our requests under way; failed the
	// transport error of those the transport failed.
	pending map[string]bool
	failed  map[string]error
	// serving holds the cancel functions of the server requests being
	// answered, by JSON id.
	serving map[string]context.CancelFunc
	closed  bool
	lostErr error
	caps    mcp.ServerCapabilities
	version string
}

// New returns a client over tr, not started.
func New(tr Transport, opts ...Option) *Client {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Client{
		tr: tr, o: o, log: o.log, ctx: ctx, cancel: cancel,
		pending: map[string]bool{}, failed: map[string]error{}, serving: map[string]context.CancelFunc{},
	}
}

// Start opens the transport; ctx bounds the opening only. After a failed
// Start, Close still releases the client.
func (c *Client) Start(ctx context.Context) error {
	c.mu.Lock()
	if c.closed || c.in != nil {
		c.mu.Unlock()
		return ErrClosed
	}
	c.in = newInbox(c.ctx, c.tr, c.log, c.recordFailure, c.recordLoss)
	c.mu.Unlock()
	if err := c.tr.Start(ctx, c.in); err != nil {
		_ = c.in.Close()
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return ErrClosed
	}
	c.conn = jsonrpc2.NewConn(c.ctx, c.in, handler{c}, jsonrpc2.SetLogger(logAdapter{c.log}))
	c.wg.Add(1)
	go c.watch(c.conn)
	return nil
}

// watch waits for the connection to end and reports a loss that Close did
// not cause.
func (c *Client) watch(conn *jsonrpc2.Conn) {
	defer c.wg.Done()
	<-conn.DisconnectNotify()
	c.mu.Lock()
	closed, why := c.closed, c.lostErr
	c.mu.Unlock()
	if closed {
		return
	}
	if why == nil {
		why = transportErr(errors.New("connection closed"))
	}
	c.log.Debug("mcp: connection lost", "err", why)
	if c.o.lost != nil {
		c.o.lost(why)
	}
}

// Close ends the session, the transport and every goroutine of the client.
// Requests under way fail with ErrClosed.
func (c *Client) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		in, conn := c.in, c.conn
		c.mu.Unlock()
		c.cancel()
		if conn != nil {
			if e := conn.Close(); !errors.Is(e, jsonrpc2.ErrClosed) {
				err = e
			}
		}
		if in != nil {
			// The transport may be closing already (jsonrpc2 closes
			// it when its context ends, or on a loss); this returns
			// once it is closed.
			_ = in.Close()
		}
		c.wg.Wait()
	})
	return err
}

// recordFailure keeps the transport error of a request under way.
func (c *Client) recordFailure(id string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending[id] {
		c.failed[id] = err
	}
}

// recordLoss keeps why the connection ended.
func (c *Client) recordLoss(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lostErr == nil {
		c.lostErr = err
	}
}

// ServerCapabilities are what the server declared in Initialize.
func (c *Client) ServerCapabilities() mcp.ServerCapabilities {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caps
}

// ProtocolVersion is the protocol version the server chose in Initialize.
func (c *Client) ProtocolVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// call sends a request and stores the raw result in *result.
func (c *Client) call(ctx context.Context, method string, params any, result *json.RawMessage) error {
	c.mu.Lock()
	conn, closed := c.conn, c.closed
	c.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if conn == nil {
		return fmt.Errorf("%s: the client is not started", method)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	n := c.nextID.Add(1)
	key := strconv.FormatUint(n, 10)
	c.mu.Lock()
	c.pending[key] = true
	c.mu.Unlock()
	err := conn.Call(ctx, method, params, result, jsonrpc2.PickID(jsonrpc2.ID{Num: n}))
	c.mu.Lock()
	failure := c.failed[key]
	delete(c.pending, key)
	delete(c.failed, key)
	lost, closed := c.lostErr, c.closed
	c.mu.Unlock()
	if err == nil {
		return nil
	}
	return c.callError(ctx, method, n, err, failure, lost, closed)
}

// callError turns what jsonrpc2 returned into the package's errors.
func (c *Client) callError(ctx context.Context, method string, id uint64, err, failure, lost error, closed bool) error {
	var rpcErr *jsonrpc2.Error
	switch {
	case ctx.Err() != nil:
		if method != string(mcp.MethodInitialize) && !closed {
			c.cancelled(id, ctx.Err())
		}
		return fmt.Errorf("%s: %w", method, ctx.Err())
	case failure != nil:
		return fmt.Errorf("%s: %w", method, transportErr(failure))
	case errors.As(err, &rpcErr):
		e := &Error{Code: rpcErr.Code, Message: rpcErr.Message}
		if rpcErr.Data != nil {
			e.Data = append(json.RawMessage(nil), *rpcErr.Data...)
		}
		return fmt.Errorf("%s: %w", method, e)
	case closed:
		return fmt.Errorf("%s: %w", method, ErrClosed)
	case lost != nil:
		return fmt.Errorf("%s: %w", method, lost)
	default:
		return fmt.Errorf("%s: %w", method, transportErr(err))
	}
}

// cancelled tells the server to stop working on request id (best effort,
// off the caller's path).
func (c *Client) cancelled(id uint64, why error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.conn == nil {
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		ctx, cancel := context.WithTimeout(c.ctx, cancelTimeout)
		defer cancel()
		params := map[string]any{"requestId": id, "reason": why.Error()}
		_ = c.notify(ctx, string(mcp.MethodNotificationCancelled), params)
	}()
}

// cancelTimeout bounds sending a notifications/cancelled.
const cancelTimeout = 5 * time.Second

// notify sends a notification. It goes to the transport directly, not
// through jsonrpc2, so that ctx bounds the sending (jsonrpc2 ignores it).
func (c *Client) notify(ctx context.Context, method string, params any) error {
	c.mu.Lock()
	started, closed := c.conn != nil, c.closed
	c.mu.Unlock()
	if closed || !started {
		return ErrClosed
	}
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	raw, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if err := c.tr.Send(ctx, raw); err != nil {
		return fmt.Errorf("%s: %w", method, transportErr(err))
	}
	return nil
}

// logAdapter lets jsonrpc2 log through slog.
type logAdapter struct{ log *slog.Logger }

// Printf implements jsonrpc2.Logger.
func (l logAdapter) Printf(format string, v ...any) {
	l.log.Debug("mcp: " + strings.TrimSpace(fmt.Sprintf(format, v...)))
}
