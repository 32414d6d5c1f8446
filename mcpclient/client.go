package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Transport carries JSON-RPC messages between a Client and one server:
// one of mcp-go's transports (NewStdio, NewStreamableHTTP, NewSSE) or a
// caller's own. One that implements transport.BidirectionalInterface also
// carries the server's requests (elicitation, sampling, roots).
type Transport = transport.Interface

// Client is one MCP session with a server over a Transport. Start it, then
// Initialize, then make requests; Close ends it. Its methods are safe for
// concurrent use.
type Client struct {
	mc  *client.Client
	tr  Transport
	o   options
	log *slog.Logger

	// ctx ends with Close; the transport and the answers to server
	// requests run under it.
	ctx    context.Context
	cancel context.CancelFunc

	lostOnce  sync.Once
	closeOnce sync.Once

	// mu guards the fields below.
	mu      sync.Mutex
	started bool
	closed  bool
	caps    mcp.ServerCapabilities
	version string
	// stopListen ends the subscriptions/listen stream of a stateless
	// connection; nil when there is none.
	stopListen func()
}

// New returns a client over tr, not started.
func New(tr Transport, opts ...Option) *Client {
	o := defaultOptions()
	for _, opt := range opts {
		opt(&o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c := &Client{tr: tr, o: o, log: o.log, ctx: ctx, cancel: cancel}
	copts := []client.ClientOption{client.WithClientCapabilities(o.caps)}
	if o.version != "" {
		copts = append(copts, client.WithProtocolVersion(o.version))
	}
	if o.discoverTimeout != 0 {
		copts = append(copts, client.WithDiscoverTimeout(o.discoverTimeout))
	}
	if o.elicit != nil {
		copts = append(copts, client.WithElicitationHandler(o.elicit))
	}
	if o.sampling != nil {
		copts = append(copts, client.WithSamplingHandler(o.sampling))
	}
	if o.roots != nil {
		copts = append(copts, client.WithRootsHandler(o.roots))
	}
	c.mc = client.NewClient(tr, copts...)
	c.mc.OnNotification(c.notified)
	c.mc.OnConnectionLost(c.lost)
	return c
}

// Start opens the transport; ctx bounds the opening only (the legacy SSE
// transport waits there for its endpoint). After a failed Start, Close
// still releases the client.
func (c *Client) Start(ctx context.Context) error {
	c.mu.Lock()
	if c.closed || c.started {
		c.mu.Unlock()
		return ErrClosed
	}
	c.started = true
	c.mu.Unlock()
	done := make(chan error, 1)
	// The transport keeps the context it starts with for its life.
	go func() { done <- c.mc.Start(c.ctx) }()
	select {
	case err := <-done:
		if err != nil {
			var tErr *transport.Error
			if !errors.As(err, &tErr) {
				err = transport.NewError(err) // whatever fails here is the carrier
			}
			return fmt.Errorf("start: %w", c.classify(err))
		}
		return nil
	case <-ctx.Done():
		_ = c.tr.Close()
		<-done
		return fmt.Errorf("start: %w", ctx.Err())
	}
}

// Initialize opens the session: server/discover first, then, for a server
// that predates it, the initialize handshake. On a stateless connection it
// also subscribes to the list_changed notifications the server offers.
func (c *Client) Initialize(ctx context.Context) (*mcp.InitializeResult, error) {
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = c.o.info
	req.Params.ProtocolVersion = c.o.version
	res, err := c.mc.Initialize(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mcp.MethodInitialize, c.classify(err))
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, fmt.Errorf("%s: %w", mcp.MethodInitialize, ErrClosed)
	}
	c.caps, c.version = res.Capabilities, res.ProtocolVersion
	if mcp.IsModernProtocol(res.ProtocolVersion) {
		c.listen(res.Capabilities)
	}
	return res, nil
}

// listen opens the subscriptions/listen stream that carries the
// list_changed notifications of a stateless connection. c.mu is held.
func (c *Client) listen(caps mcp.ServerCapabilities) {
	f := mcp.SubscriptionFilter{
		ToolsListChanged:     caps.Tools != nil && caps.Tools.ListChanged,
		PromptsListChanged:   caps.Prompts != nil && caps.Prompts.ListChanged,
		ResourcesListChanged: caps.Resources != nil && caps.Resources.ListChanged,
	}
	if f.IsEmpty() {
		return
	}
	stop, err := c.mc.ListenAsync(c.ctx, f, func(err error) {
		c.log.Debug("mcp: the notification stream ended", "err", err)
		// Without a session, the broken stream is how a server that went
		// away shows; a server that refused the stream is still there.
		var rpcErr *Error
		if !errors.As(classify(err, false), &rpcErr) {
			c.lost(err)
		}
	})
	if err != nil {
		c.log.Debug("mcp: no notification stream", "err", err)
		return
	}
	c.stopListen = stop
}

// Close ends the session, the transport and every goroutine of the client.
// Requests under way fail with ErrClosed.
func (c *Client) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		stop := c.stopListen
		c.mu.Unlock()
		c.cancel()
		if stop != nil {
			stop()
		}
		if e := c.mc.Close(); e != nil && !errors.Is(e, transport.ErrTransportClosed) {
			err = e
		}
	})
	return err
}

// ServerCapabilities are what the server declared.
func (c *Client) ServerCapabilities() mcp.ServerCapabilities {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caps
}

// ProtocolVersion is the protocol version of the session.
func (c *Client) ProtocolVersion() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// classify turns an error of mcp-go into the package's; a Streamable HTTP
// session the server forgot (HTTP 404) is also a lost connection. A
// stateless connection has no session to forget: there a 404 answers that
// request only (mcp-go's server answers an unknown method so).
func (c *Client) classify(err error) error {
	c.mu.Lock()
	closed, stateless := c.closed, mcp.IsModernProtocol(c.version)
	c.mu.Unlock()
	if !closed && !stateless && errors.Is(err, transport.ErrSessionTerminated) {
		c.lost(err)
	}
	return classify(err, closed)
}

// notified hands a notification to the caller's handler.
func (c *Client) notified(n mcp.JSONRPCNotification) {
	if c.o.notify == nil || c.ctx.Err() != nil {
		return
	}
	c.o.notify(n)
}

// lost reports, once, a connection that ended without Close.
func (c *Client) lost(err error) {
	if c.ctx.Err() != nil {
		return
	}
	c.lostOnce.Do(func() {
		if err == nil {
			err = errors.New("connection closed")
		}
		err = fmt.Errorf("%w: %w", ErrTransport, err)
		c.log.Debug("mcp: connection lost", "err", err)
		if c.o.lost != nil {
			c.o.lost(err)
		}
	})
}
