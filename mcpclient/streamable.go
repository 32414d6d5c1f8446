package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Backoff of the listening stream's reconnections, and how many failed
// attempts in a row end the connection.
const (
	listenBackoffMin = 500 * time.Millisecond
	listenBackoffMax = 30 * time.Second
	listenAttempts   = 5
)

// StreamableHTTP is the Streamable HTTP transport: every message is POSTed
// to one URL; the answer is 202 (nothing), one JSON message, or a stream of
// events carrying messages. The session id of the initialize answer and,
// after initialization, the protocol version go with every request; the
// optional GET stream carries what the server says unasked; Close ends the
// session with DELETE.
type StreamableHTTP struct {
	httpBase
	url    string
	listen bool

	// Guarded by httpBase.mu.
	session string
	version string
}

var _ SessionTransport = (*StreamableHTTP)(nil)

// NewStreamableHTTP returns the transport for the MCP endpoint url.
func NewStreamableHTTP(url string, o HTTPOptions) *StreamableHTTP {
	t := &StreamableHTTP{httpBase: newHTTPBase(o), url: url, listen: o.Listen}
	t.inBody = true
	return t
}

// Start records the receiver; nothing is opened before the first message.
func (t *StreamableHTTP) Start(_ context.Context, rc Receiver) error {
	t.rc = rc
	return nil
}

// Send POSTs msg. A request is sent from a goroutine of its own, its
// answer delivered when it comes; a notification or response is sent
// before Send returns, so that they reach the server in order.
func (t *StreamableHTTP) Send(ctx context.Context, msg json.RawMessage) error {
	h := readHead(msg)
	if !h.isRequest() {
		t.cancelRequest(msg, h)
		ctx, cancel := t.bound(ctx)
		defer cancel()
		return t.postOne(ctx, msg, h)
	}
	return t.goRequest(h, func(ctx context.Context) { _ = t.postOne(ctx, msg, h) })
}

// postOne POSTs one message with the session's headers.
func (t *StreamableHTTP) postOne(ctx context.Context, msg []byte, h head) error {
	withSession := t.sessionHeaders()
	return t.post(ctx, t.url, msg, h, withSession, func(resp *http.Response) error {
		return t.checkAnswer(resp, h, withSession.Get(headerSession) != "")
	})
}

// sessionHeaders are the session id and protocol version, once known.
func (t *StreamableHTTP) sessionHeaders() http.Header {
	t.mu.Lock()
	defer t.mu.Unlock()
	hdr := http.Header{}
	if t.session != "" {
		hdr.Set(headerSession, t.session)
	}
	if t.version != "" {
		hdr.Set(headerProtocol, t.version)
	}
	return hdr
}

// checkAnswer keeps the session id of the initialize answer and turns an
// unusable status into an error; an expired session ends the connection.
func (t *StreamableHTTP) checkAnswer(resp *http.Response, h head, withSession bool) error {
	if resp.StatusCode/100 != 2 {
		err := statusError(resp, withSession)
		if errors.Is(err, ErrSessionExpired) {
			t.rc.Lost(err)
		}
		return err
	}
	if id := resp.Header.Get(headerSession); id != "" && h.Method == "initialize" {
		t.mu.Lock()
		t.session = id
		t.mu.Unlock()
	}
	return nil
}

// Initialized sends the protocol version from now on and opens the
// listening stream when asked to.
func (t *StreamableHTTP) Initialized(version string) {
	t.mu.Lock()
	t.version = version
	t.mu.Unlock()
	if t.listen {
		t.goRun(t.listenLoop)
	}
}

// listenLoop keeps the GET stream open until Close: after a drop it
// reconnects with backoff; a server that refuses it (405, or any other
// status) is left alone; an expired session, or listenAttempts network
// failures in a row, end the connection.
func (t *StreamableHTTP) listenLoop() {
	delay, failures, lastID := listenBackoffMin, 0, ""
	for {
		opened, err := t.listenOnce(&lastID)
		if t.ctx.Err() != nil {
			return
		}
		var he *HTTPError
		switch {
		case errors.Is(err, ErrSessionExpired):
			t.rc.Lost(err)
			return
		case errors.As(err, &he) && he.StatusCode == http.StatusMethodNotAllowed:
			t.log.Debug("mcp: the server offers no listening stream")
			return
		case errors.As(err, &he):
			// Any other status: the server has no stream for us; the
			// session goes on without one.
			t.log.Warn("mcp: the server refused the listening stream", "err", err)
			return
		case opened:
			delay, failures = listenBackoffMin, 0
		default:
			failures++
		}
		if failures >= listenAttempts {
			t.rc.Lost(fmt.Errorf("listening stream: %w", err))
			return
		}
		t.log.Debug("mcp: listening stream ended; reconnecting", "err", err, "in", delay)
		timer := time.NewTimer(delay)
		select {
		case <-t.ctx.Done():
			timer.Stop()
			return
		case <-timer.C:
		}
		delay = min(delay*2, listenBackoffMax)
	}
}

// listenOnce opens the GET stream and delivers its messages until it
// ends; it reports whether it opened.
func (t *StreamableHTTP) listenOnce(lastID *string) (bool, error) {
	req, err := t.newRequest(t.ctx, http.MethodGet, t.url, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "text/event-stream")
	hdr := t.sessionHeaders()
	for k, v := range hdr {
		req.Header[k] = v
	}
	if *lastID != "" {
		req.Header.Set(headerLastID, *lastID)
	}
	resp, err := t.client.Do(req)
	if err != nil {
		return false, transportErr(err)
	}
	if resp.StatusCode != http.StatusOK {
		return false, statusError(resp, hdr.Get(headerSession) != "")
	}
	defer resp.Body.Close()
	err = readEvents(resp.Body, func(ev event) bool {
		if ev.id != "" {
			*lastID = ev.id
		}
		if ev.name == "message" && len(ev.data) > 0 {
			t.rc.Deliver(json.RawMessage(ev.data))
		}
		return true
	})
	if err == nil {
		err = errors.New("the server ended the stream")
	}
	return true, err
}

// Close ends the session with DELETE (bounded by closeTimeout), then every
// request and stream under way.
func (t *StreamableHTTP) Close() error {
	if !t.shut() {
		return nil
	}
	hdr := t.sessionHeaders()
	if hdr.Get(headerSession) != "" {
		ctx, cancel := context.WithTimeout(t.ctx, closeTimeout)
		if req, err := t.newRequest(ctx, http.MethodDelete, t.url, nil); err == nil {
			for k, v := range hdr {
				req.Header[k] = v
			}
			if resp, err := t.client.Do(req); err == nil {
				_ = resp.Body.Close()
			}
		}
		cancel()
	}
	t.cancel()
	t.wg.Wait()
	return nil
}
