package companion

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"companion/ide"
)

// Defaults for Options.
const (
	DefaultRequestTimeout = 10 * time.Second
	DefaultDiffTimeout    = 10 * time.Minute
	DefaultReconnectMin   = 250 * time.Millisecond
	DefaultReconnectMax   = 15 * time.Second
)

// Options configures a Client. Zero values take the defaults.
type Options struct {
	// OnContext receives every editor context update, converted (0-based
	// positions, file:// URIs) and normalised. Calls come one at a time,
	// never after Close returns; they must not block for long nor call
	// Close.
	OnContext func(ide.Context)
	// OnStatus is told when the connection breaks (false) and when it is
	// back (true); Connect's return reports the first connection. Calls
	// come from one goroutine, in order, never after Close returns; they
	// must not call Close.
	OnStatus func(connected bool)
	// Log receives connection events (nil: discarded).
	Log *slog.Logger
	// ClientName and ClientVersion introduce the agent to the IDE
	// ("companion" and "" by default).
	ClientName, ClientVersion string
	// RequestTimeout bounds connecting and each tool call
	// (DefaultRequestTimeout).
	RequestTimeout time.Duration
	// DiffTimeout is how long a diff waits for the user (DefaultDiffTimeout).
	DiffTimeout time.Duration
	// ReconnectMin and ReconnectMax bound the backoff between reconnection
	// attempts, which doubles from the first to the second.
	ReconnectMin, ReconnectMax time.Duration
	// Rediscover, when set, is asked for the endpoint before each
	// reconnection attempt, so that an editor window that came back on
	// another port (a reload) is found; on error the last endpoint is kept.
	Rediscover func() (*Endpoint, error)
}

// withDefaults fills in zero fields.
func (o Options) withDefaults() Options {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.ClientName == "" {
		o.ClientName = "companion"
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	if o.DiffTimeout <= 0 {
		o.DiffTimeout = DefaultDiffTimeout
	}
	if o.ReconnectMin <= 0 {
		o.ReconnectMin = DefaultReconnectMin
	}
	if o.ReconnectMax < o.ReconnectMin {
		o.ReconnectMax = max(DefaultReconnectMax, o.ReconnectMin)
	}
	return o
}

// Client is a connection to one IDE companion server that survives
// reconnections. Its methods are safe for concurrent use.
type Client struct {
	opts Options
	log  *slog.Logger
	// http is shared by every connection, so Close can drop its idle
	// sockets.
	http *http.Transport

	// ctx ends when Close is called; cancel ends it.
	ctx    context.Context
	cancel context.CancelFunc
	// done is closed when the supervising goroutine has ended.
	done      chan struct{}
	closeOnce sync.Once
	// wg counts the diff watchers.
	wg sync.WaitGroup

	// mu guards the fields below it.
	mu sync.Mutex
	// ep is the endpoint in use or being tried.
	ep Endpoint
	// cur is the connection being set up or in use; notifications from
	// any other are ignored.
	cur *conn
	// connected is set while cur is up.
	connected bool
	// closed is set by Close; no diff starts after it.
	closed bool
	// diffs holds the open diffs by cleaned file path.
	diffs map[string]*pendingDiff

	// ctxMu serialises OnContext calls and guards noContext.
	ctxMu sync.Mutex
	// noContext is set by Close: no OnContext call starts after it.
	noContext bool
}

// Connect connects to the IDE server at ep and keeps the connection up in
// the background until Close. It returns once the session is initialised
// and the server's notification stream is open, or fails: ErrUnauthorized
// for a refused token, ErrNoStream when the stream does not open, or the
// network error.
func Connect(ctx context.Context, ep *Endpoint, opts Options) (*Client, error) {
	if ep == nil {
		return nil, ErrNotFound
	}
	opts = opts.withDefaults()
	cctx, cancel := context.WithCancel(context.Background())
	c := &Client{
		opts:   opts,
		log:    opts.Log.With("ide_port", ep.Port),
		http:   &http.Transport{}, // no proxy: the server is on 127.0.0.1
		ctx:    cctx,
		cancel: cancel,
		done:   make(chan struct{}),
		ep:     *ep,
		diffs:  map[string]*pendingDiff{},
	}
	cn, err := c.dial(ctx, *ep)
	if err != nil {
		cancel()
		c.http.CloseIdleConnections()
		return nil, err
	}
	c.setLive(cn)
	go c.supervise(cn)
	return c, nil
}

// Connected reports whether the connection is up right now.
func (c *Client) Connected() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.connected
}

// DiffSupported reports whether the connection is up and the IDE offers
// the openDiff and closeDiff tools.
func (c *Client) DiffSupported() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.connected && c.cur.canDiff
}

// Endpoint returns the endpoint in use, or while reconnecting the one
// being tried.
func (c *Client) Endpoint() Endpoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ep
}

// closeTimeout bounds how long Close spends closing open diffs in the IDE.
const closeTimeout = 2 * time.Second

// Close ends the connection and every goroutine of the client. Open diffs
// are closed in the IDE (for at most two seconds in all) and end as
// DiffLost with ErrClosed. Close is idempotent and always returns nil.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		c.closeOpenDiffs()
		c.cancel()
		<-c.done
		c.wg.Wait()
		c.ctxMu.Lock() // waits for a context callback under way
		c.noContext = true
		c.ctxMu.Unlock()
		c.http.CloseIdleConnections()
	})
	return nil
}

// closeOpenDiffs closes the open diffs in the IDE, as a leaving agent
// should; their results come from drop.
func (c *Client) closeOpenDiffs() {
	c.mu.Lock()
	cn, up := c.cur, c.connected
	var paths []string
	for _, d := range c.diffs {
		if d.cn == cn {
			paths = append(paths, d.path)
		}
	}
	c.mu.Unlock()
	if !up || len(paths) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, closeTimeout)
	defer cancel()
	for _, p := range paths {
		if _, err := c.callTool(ctx, cn.mc, toolCloseDiff, closeArgs(p)); err != nil {
			c.log.Debug("closing the IDE diff failed", "file", p, "err", err)
		}
	}
}

// setLive marks cn as the connection in use.
func (c *Client) setLive(cn *conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cur = cn
	c.connected = true
}

// supervise waits for the connection to break, then reconnects with
// backoff, until Close.
func (c *Client) supervise(cn *conn) {
	defer close(c.done)
	for {
		select {
		case <-c.ctx.Done():
			c.drop(cn, ErrClosed)
			return
		case <-cn.lost:
		}
		c.log.Info("IDE connection lost; reconnecting", "err", cn.cause())
		c.drop(cn, ErrConnectionLost)
		c.status(false)
		next, ok := c.redial()
		if !ok {
			return
		}
		cn = next
		c.status(true)
	}
}

// status reports a change of connection to OnStatus.
func (c *Client) status(connected bool) {
	if c.opts.OnStatus != nil {
		c.opts.OnStatus(connected)
	}
}

// drop takes cn out of service: the client is disconnected, its open diffs
// end as DiffLost with why, and its MCP session is closed.
func (c *Client) drop(cn *conn, why error) {
	c.mu.Lock()
	if c.cur == cn {
		c.connected = false
	}
	var lost []*pendingDiff
	for _, d := range c.diffs {
		if d.cn == cn {
			lost = append(lost, d)
		}
	}
	c.mu.Unlock()
	for _, d := range lost {
		c.finish(d, DiffResult{Outcome: DiffLost, Err: why})
	}
	cn.close()
}

// redial reconnects with exponential backoff between ReconnectMin and
// ReconnectMax. It reports false when Close came first.
func (c *Client) redial() (*conn, bool) {
	delay := c.opts.ReconnectMin
	timer := time.NewTimer(delay)
	defer timer.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return nil, false
		case <-timer.C:
		}
		ep := c.nextEndpoint()
		cn, err := c.dial(c.ctx, ep)
		if err == nil {
			c.setLive(cn)
			c.log.Info("IDE connection re-established", "port", ep.Port)
			return cn, true
		}
		if c.ctx.Err() != nil {
			return nil, false
		}
		c.log.Debug("IDE reconnection failed", "port", ep.Port, "err", err, "retry_in", delay)
		delay = min(delay*2, c.opts.ReconnectMax)
		timer.Reset(delay)
	}
}

// nextEndpoint returns the endpoint to try next: Rediscover's answer when
// it has one, else the last.
func (c *Client) nextEndpoint() Endpoint {
	if c.opts.Rediscover != nil {
		if ep, err := c.opts.Rediscover(); err == nil && ep != nil {
			c.mu.Lock()
			c.ep = *ep
			c.mu.Unlock()
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ep
}
