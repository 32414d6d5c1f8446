package companion

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"companion/mcpclient"
)

// The IDE's tools.
const (
	toolOpenDiff  = "openDiff"
	toolCloseDiff = "closeDiff"
)

// errStreamClosed is why a stream ended that was closed rather than broken.
var errStreamClosed = errors.New("notification stream closed")

// conn is one MCP session with the IDE server. It is lost when its
// notification stream (the GET of streamable HTTP) fails or ends: that
// stream carries everything the IDE says unasked, so without it the session
// is of no use, and a broken stream is how a dead or restarted server shows.
type conn struct {
	mc *mcpclient.Client
	// canDiff is set when the IDE lists openDiff and closeDiff; written
	// before the conn is published.
	canDiff bool

	// opened is closed when the stream has opened.
	opened     chan struct{}
	openedOnce sync.Once
	// lost is closed when the stream has failed or ended; err says why.
	lost     chan struct{}
	lostOnce sync.Once
	err      error
}

// newConn returns a conn not yet connected.
func newConn() *conn {
	return &conn{opened: make(chan struct{}), lost: make(chan struct{})}
}

// open records that the stream opened.
func (cn *conn) open() { cn.openedOnce.Do(func() { close(cn.opened) }) }

// end records that the stream failed or ended, the first reason winning.
func (cn *conn) end(err error) {
	cn.lostOnce.Do(func() {
		cn.err = err
		close(cn.lost)
	})
}

// cause says why the stream ended; call it after lost is closed.
func (cn *conn) cause() error { return cn.err }

// close ends the session (the client ends its goroutines and the stream).
func (cn *conn) close() {
	if cn.mc != nil {
		_ = cn.mc.Close()
	}
	cn.end(errStreamClosed)
}

// dial opens a session with the server at ep: initialize, then wait for the
// notification stream, then list the tools. The conn becomes the current
// one before the stream opens, so that the context the server pushes at
// once is not missed.
func (c *Client) dial(ctx context.Context, ep Endpoint) (*conn, error) {
	cn := newConn()
	tr, err := mcpclient.NewStreamableHTTP(ep.URL(), mcpclient.HTTPOptions{
		// IDE companion servers speak the 2025 protocol, whose standalone
		// GET stream carries their notifications.
		Listen:  true,
		Headers: map[string]string{"Authorization": "Bearer " + ep.AuthToken},
		Client:  &http.Client{Transport: &streamWatch{base: c.http, cn: cn}},
		Log:     c.log,
	})
	if err != nil {
		return nil, fmt.Errorf("IDE connection: %w", err)
	}
	cn.mc = mcpclient.New(tr,
		mcpclient.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION),
		mcpclient.WithClientInfo(mcp.Implementation{Name: c.opts.ClientName, Version: c.opts.ClientVersion}),
		mcpclient.WithNotificationHandler(func(n mcp.JSONRPCNotification) { c.onNotification(cn, n) }),
		mcpclient.WithConnectionLost(cn.end),
		mcpclient.WithLogger(c.log))
	c.mu.Lock()
	c.cur = cn
	c.mu.Unlock()
	if err := c.handshake(ctx, cn); err != nil {
		cn.close()
		return nil, err
	}
	return cn, nil
}

// handshake initialises the session, waits for the stream and lists the
// tools, within RequestTimeout.
func (c *Client) handshake(ctx context.Context, cn *conn) error {
	ctx, cancel := context.WithTimeout(ctx, c.opts.RequestTimeout)
	defer cancel()
	// ctx bounds the opening only; the listening stream lives until close.
	if err := cn.mc.Start(ctx); err != nil {
		return fmt.Errorf("IDE connection: %w", err)
	}
	if _, err := cn.mc.Initialize(ctx); err != nil {
		if errors.Is(err, mcpclient.ErrUnauthorized) {
			return fmt.Errorf("%w: %w", ErrUnauthorized, err)
		}
		return fmt.Errorf("IDE connection: %w", err)
	}
	select {
	case <-cn.opened:
	case <-cn.lost:
		return fmt.Errorf("%w: %w", ErrNoStream, cn.cause())
	case <-ctx.Done():
		return fmt.Errorf("%w: %w", ErrNoStream, ctx.Err())
	}
	cn.canDiff = hasDiffTools(ctx, cn.mc)
	return nil
}

// hasDiffTools reports whether the server lists both diff tools; a server
// that cannot list its tools has none.
func hasDiffTools(ctx context.Context, mc *mcpclient.Client) bool {
	res, err := mc.ListTools(ctx)
	if err != nil {
		return false
	}
	found := 0
	for _, t := range res.Tools {
		if t.Name == toolOpenDiff || t.Name == toolCloseDiff {
			found++
		}
	}
	return found == 2
}

// streamWatch passes requests through and watches the GET stream: its
// opening and its end are the conn's.
type streamWatch struct {
	base http.RoundTripper
	cn   *conn
}

// RoundTrip implements http.RoundTripper.
func (w *streamWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := w.base.RoundTrip(req)
	// A GET with Last-Event-ID resumes a request's stream, not the
	// listening one.
	if req.Method != http.MethodGet || req.Header.Get("Last-Event-ID") != "" {
		return resp, err
	}
	if err != nil {
		w.cn.end(err)
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("notification stream: HTTP %s", resp.Status)
		if resp.StatusCode == http.StatusUnauthorized {
			err = fmt.Errorf("%w: %w", ErrUnauthorized, err)
		}
		w.cn.end(err)
		return resp, nil
	}
	w.cn.open()
	resp.Body = &watchedBody{ReadCloser: resp.Body, cn: w.cn}
	return resp, nil
}

// watchedBody ends the conn when the stream's body fails, ends or is closed.
type watchedBody struct {
	io.ReadCloser
	cn *conn
}

// Read implements io.Reader.
func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil {
		why := err
		if errors.Is(err, io.EOF) {
			why = errStreamClosed
		}
		b.cn.end(why)
	}
	return n, err
}

// Close implements io.Closer.
func (b *watchedBody) Close() error {
	b.cn.end(errStreamClosed)
	return b.ReadCloser.Close()
}
