package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"companion/mcpclient"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// discoverTimeout bounds the wait for a stdio server's answer to
// server/discover: one that ignores the method (rather than answering
// "method not found") costs start-up no longer than this before the
// initialize handshake follows.
const discoverTimeout = 500 * time.Millisecond

// errConnClosed is why a connection companion closed itself is done.
var errConnClosed = errors.New("connection closed")

// conn is one live connection to a server: the MCP client and whatever it
// runs on (a child process, or an HTTP transport of its own).
type conn struct {
	client *mcpclient.Client
	// proc is the child process of a stdio server; nil otherwise.
	proc *process
	// httpTr carries an SSE or HTTP server's requests; nil for stdio.
	httpTr *http.Transport
	// cancel ends the connection's context (the handshake).
	cancel context.CancelFunc
	// caps are what the server said it offers.
	caps mcpgo.ServerCapabilities
	// refresh receives a token when the server says its tools or prompts
	// changed; the supervisor lists them again.
	refresh chan struct{}
	// done is closed when the connection is dead; failErr says why.
	done     chan struct{}
	failOnce sync.Once
	failErr  error
}

// listing is what a server offers.
type listing struct {
	tools     []mcpgo.Tool
	prompts   []mcpgo.Prompt
	resources bool
}

// dial connects to the server of cfg and initializes the session. ctx bounds
// the connection's life; the handshake is bounded by connectTimeout.
func dial(ctx context.Context, cfg *ServerConfig, o *Options) (*conn, error) {
	ctx, cancel := context.WithCancel(ctx)
	c := &conn{cancel: cancel, refresh: make(chan struct{}, 1), done: make(chan struct{})}
	tr, err := c.transport(cfg, o)
	if err != nil {
		cancel()
		return nil, err
	}
	opts := []mcpclient.Option{
		mcpclient.WithClientInfo(mcpgo.Implementation{Name: o.ClientName, Version: o.ClientVersion}),
		mcpclient.WithNotificationHandler(c.notified),
		// A stdio server that exits closes its output first: explain waits
		// a moment for the exit status, the better reason.
		mcpclient.WithConnectionLost(func(err error) { c.fail(fmt.Errorf("connection lost: %w", c.explain(err))) }),
		mcpclient.WithLogger(o.Log.With("server", cfg.Name)),
	}
	if cfg.transport() == TransportStdio {
		opts = append(opts, mcpclient.WithDiscoverTimeout(discoverTimeout))
	}
	opts = append(opts, serverRequests(cfg.Name, o)...)
	c.client = mcpclient.New(tr, opts...)
	if err := c.handshake(ctx, o); err != nil {
		err = c.explain(err)
		c.close(o.StopGrace)
		return nil, err
	}
	return c, nil
}

// transport builds the client transport of cfg; for stdio it starts the
// process.
func (c *conn) transport(cfg *ServerConfig, o *Options) (mcpclient.Transport, error) {
	switch cfg.transport() {
	case TransportStdio:
		p, err := startProcess(cfg, o.Log)
		if err != nil {
			return nil, err
		}
		c.proc = p
		go func() {
			<-p.exited
			c.fail(p.exitError())
		}()
		return mcpclient.NewStdio(p.stdout, p.stdin), nil
	case TransportRelay:
		return newRelayTransport(cfg.Relay), nil
	}
	c.httpTr = http.DefaultTransport.(*http.Transport).Clone()
	// Listen: on a handshake-era connection the GET stream is how
	// notifications such as tools/list_changed arrive.
	ho := mcpclient.HTTPOptions{Headers: cfg.Headers, Listen: true,
		Client: &http.Client{Transport: o.Auth.wrap(cfg, c.httpTr, c.fail)}, Log: o.Log.With("server", cfg.Name)}
	if cfg.transport() == TransportSSE {
		return mcpclient.NewSSE(cfg.URL, ho)
	}
	return mcpclient.NewStreamableHTTP(cfg.URL, ho)
}

// handshake starts the client and initializes the MCP session.
func (c *conn) handshake(ctx context.Context, o *Options) error {
	initCtx, cancel := context.WithTimeout(ctx, o.ConnectTimeout)
	defer cancel()
	// Start is bounded by the connect timeout (SSE waits there for its
	// endpoint); the transport then lives until close.
	if err := c.client.Start(initCtx); err != nil {
		if initCtx.Err() != nil && ctx.Err() == nil {
			return fmt.Errorf("no connection within %s", o.ConnectTimeout)
		}
		return fmt.Errorf("start: %w", err)
	}
	res, err := c.callOrDone(initCtx, func(ctx context.Context) (any, error) {
		return c.client.Initialize(ctx)
	})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			return fmt.Errorf("no answer to initialize within %s", o.ConnectTimeout)
		}
		return fmt.Errorf("initialize: %w", err)
	}
	init := res.(*mcpgo.InitializeResult)
	c.caps = init.Capabilities
	return nil
}

// callOrDone runs f and returns its result, or the connection's error as
// soon as the connection dies (a server that exits mid-handshake).
func (c *conn) callOrDone(ctx context.Context, f func(context.Context) (any, error)) (any, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-c.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	v, err := f(ctx)
	if err != nil {
		select {
		case <-c.done:
			return nil, c.failErr
		default:
		}
	}
	return v, err
}

// list asks the server for its tools and prompts, bounded by timeout. A
// server that did not declare a capability may still answer; if it fails,
// the capability is simply absent.
func (c *conn) list(ctx context.Context, timeout time.Duration) (listing, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var l listing
	tl, err := c.client.ListTools(ctx)
	switch {
	case err == nil:
		l.tools = tl.Tools
	case c.caps.Tools != nil:
		return l, fmt.Errorf("list tools: %w", c.explain(err))
	}
	pl, err := c.client.ListPrompts(ctx)
	switch {
	case err == nil:
		l.prompts = pl.Prompts
	case c.caps.Prompts != nil:
		return l, fmt.Errorf("list prompts: %w", c.explain(err))
	}
	l.resources = c.caps.Resources != nil
	return l, nil
}

// notified handles a server notification. It runs on the transport's read
// loop, so it only signals the supervisor and never blocks.
func (c *conn) notified(n mcpgo.JSONRPCNotification) {
	switch n.Method {
	case string(mcpgo.MethodNotificationToolsListChanged), string(mcpgo.MethodNotificationPromptsListChanged):
		select {
		case c.refresh <- struct{}{}:
		default:
		}
	}
}

// fail marks the connection dead for reason err (the first reason wins).
func (c *conn) fail(err error) {
	c.failOnce.Do(func() {
		c.failErr = err
		close(c.done)
	})
}

// explain replaces a transport error by the reason the connection died,
// when it did (a stdio server that exited: its status and stderr).
func (c *conn) explain(err error) error {
	if c.proc == nil {
		return err
	}
	timer := time.NewTimer(2 * stderrDrainWait) // the failure waits up to stderrDrainWait for stderr
	defer timer.Stop()
	select {
	case <-c.done:
		if errors.Is(c.failErr, ErrServerExited) {
			return c.failErr
		}
	case <-timer.C:
	}
	return err
}

// close ends the connection and everything it runs on. A stdio server's
// process group gets SIGTERM, then SIGKILL after grace.
func (c *conn) close(grace time.Duration) {
	c.fail(errConnClosed)
	c.cancel()
	if c.client != nil {
		_ = c.client.Close()
	}
	if c.proc != nil {
		c.proc.stop(grace)
	}
	if c.httpTr != nil {
		c.httpTr.CloseIdleConnections()
	}
}

// pid is the server's process id, 0 when it runs elsewhere.
func (c *conn) pid() int {
	if c == nil || c.proc == nil {
		return 0
	}
	return c.proc.pid
}
