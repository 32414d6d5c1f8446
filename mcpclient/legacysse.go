package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// SSE is the legacy HTTP+SSE transport (protocol 2024-11-05): a GET opens
// an event stream whose first event, "endpoint", names the URL to POST
// messages to; the answers come back on the stream. The stream's end ends
// the connection.
type SSE struct {
	httpBase
	url string

	// endpoint is set once, before ready is closed.
	endpoint string
	ready    chan struct{}
	// ended is closed when the stream has ended; endErr says why.
	ended  chan struct{}
	endErr error
}

// NewSSE returns the transport for the SSE URL u.
func NewSSE(u string, o HTTPOptions) *SSE {
	return &SSE{httpBase: newHTTPBase(o), url: u, ready: make(chan struct{}), ended: make(chan struct{})}
}

// Start opens the stream and waits, within ctx, for the endpoint event.
func (t *SSE) Start(ctx context.Context, rc Receiver) error {
	t.rc = rc
	if !t.goRun(t.stream) {
		return ErrClosed
	}
	select {
	case <-t.ready:
		return nil
	case <-t.ended:
		return t.endErr
	case <-ctx.Done():
		return fmt.Errorf("waiting for the SSE endpoint: %w", ctx.Err())
	}
}

// stream reads the event stream until it ends, which ends the connection.
func (t *SSE) stream() {
	err := t.read()
	if err == nil {
		err = transportErr(errors.New("the server ended the SSE stream"))
	}
	t.endErr = err
	close(t.ended)
	if t.ctx.Err() == nil {
		t.rc.Lost(err)
	}
}

// read opens the stream and delivers its messages.
func (t *SSE) read() error {
	req, err := t.newRequest(t.ctx, http.MethodGet, t.url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "text/event-stream")
	resp, err := t.client.Do(req)
	if err != nil {
		return transportErr(err)
	}
	if resp.StatusCode != http.StatusOK {
		return statusError(resp, false)
	}
	defer resp.Body.Close()
	var bad error
	err = readEvents(resp.Body, func(ev event) bool {
		switch ev.name {
		case "endpoint":
			bad = t.setEndpoint(string(ev.data))
			return bad == nil
		case "message":
			if len(ev.data) > 0 {
				t.rc.Deliver(json.RawMessage(ev.data))
			}
		}
		return true
	})
	if bad != nil {
		return bad
	}
	return transportErr(err)
}

// setEndpoint resolves the endpoint event's URL against the stream's; it
// must be on the same origin, and comes once.
func (t *SSE) setEndpoint(raw string) error {
	select {
	case <-t.ready:
		return nil // a repeated endpoint event changes nothing
	default:
	}
	base, err := url.Parse(t.url)
	if err != nil {
		return err
	}
	ep, err := base.Parse(strings.TrimSpace(raw))
	if err != nil {
		return fmt.Errorf("%w: bad SSE endpoint %q: %w", ErrTransport, raw, err)
	}
	if ep.Scheme != base.Scheme || ep.Host != base.Host {
		return fmt.Errorf("%w: the SSE endpoint %q is not on the server's origin", ErrTransport, raw)
	}
	t.endpoint = ep.String()
	close(t.ready)
	return nil
}

// Send POSTs msg to the endpoint; requests from a goroutine of their own,
// other messages before Send returns.
func (t *SSE) Send(ctx context.Context, msg json.RawMessage) error {
	select {
	case <-t.ready:
	default:
		return fmt.Errorf("%w: the SSE endpoint is not known yet", ErrTransport)
	}
	h := readHead(msg)
	if !h.isRequest() {
		t.cancelRequest(msg, h)
		ctx, cancel := t.bound(ctx)
		defer cancel()
		return t.post(ctx, t.endpoint, msg, h, nil, t.checkAnswer)
	}
	return t.goRequest(h, func(ctx context.Context) { _ = t.post(ctx, t.endpoint, msg, h, nil, t.checkAnswer) })
}

// checkAnswer turns an unusable status into an error.
func (t *SSE) checkAnswer(resp *http.Response) error {
	if resp.StatusCode/100 != 2 {
		return statusError(resp, false)
	}
	return nil
}

// Close ends the stream and every request under way.
func (t *SSE) Close() error {
	if !t.shut() {
		return nil
	}
	t.cancel()
	t.wg.Wait()
	return nil
}
