package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
)

// HTTPOptions configure the HTTP transports.
type HTTPOptions struct {
	// Client makes the requests (nil: a client of its own on
	// http.DefaultTransport). It must not have a Timeout: streams are
	// long-lived; each request is bounded by the client's contexts.
	Client *http.Client
	// Headers are sent with every request (an API key, an
	// Authorization header).
	Headers map[string]string
	// Listen opens Streamable HTTP's GET stream after initialization, on
	// which the server sends what it says unasked (list_changed
	// notifications); a server without one answers 405 and is left alone.
	Listen bool
	// Log receives the transport's events (nil: discarded).
	Log *slog.Logger
}

// Header names of Streamable HTTP.
const (
	headerSession  = "Mcp-Session-Id"
	headerProtocol = "MCP-Protocol-Version"
	headerLastID   = "Last-Event-ID"
)

// closeTimeout bounds the DELETE that ends a session on Close.
const closeTimeout = 2 * time.Second

// httpBase is what both HTTP transports share: the client, the headers,
// the goroutines of requests under way and their lifetime.
type httpBase struct {
	client  *http.Client
	headers map[string]string
	log     *slog.Logger
	// ctx ends with Close; every request runs under it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	rc     Receiver
	// inBody is set when the answer to a request comes in the POST's
	// answer (Streamable HTTP), not on another stream (legacy SSE).
	inBody bool

	// mu guards closed, inflight and the fields of the transports that
	// say so.
	mu     sync.Mutex
	closed bool
	// inflight cancels the POST of each request under way, by JSON id.
	inflight map[string]context.CancelFunc
}

func newHTTPBase(o HTTPOptions) httpBase {
	client := o.Client
	if client == nil {
		client = &http.Client{}
	}
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return httpBase{client: client, headers: o.Headers, log: log, ctx: ctx, cancel: cancel,
		inflight: map[string]context.CancelFunc{}}
}

// goRun runs f in a goroutine counted in wg, unless the transport closed.
func (b *httpBase) goRun(f func()) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		f()
	}()
	return true
}

// bound returns ctx, also ended by Close.
func (b *httpBase) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(b.ctx, cancel)
	return ctx, func() {
		stop()
		cancel()
	}
}

// goRequest runs post for the request h in a goroutine, under a context
// that cancelRequest can end.
func (b *httpBase) goRequest(h head, post func(context.Context)) error {
	ctx, cancel := context.WithCancel(b.ctx)
	key := compactID(h.ID)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		cancel()
		return ErrClosed
	}
	b.inflight[key] = cancel
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer func() {
			b.mu.Lock()
			delete(b.inflight, key)
			b.mu.Unlock()
			cancel()
		}()
		post(ctx)
	}()
	return nil
}

// cancelRequest ends the POST of the request a notifications/cancelled
// names: the caller gave up on it.
func (b *httpBase) cancelRequest(msg []byte, h head) {
	if h.Method != "notifications/cancelled" {
		return
	}
	var n struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &n) != nil || len(n.Params.RequestID) == 0 {
		return
	}
	b.mu.Lock()
	cancel := b.inflight[compactID(n.Params.RequestID)]
	b.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// compactID is the map key of a JSON id.
func compactID(id json.RawMessage) string {
	var buf bytes.Buffer
	if json.Compact(&buf, id) != nil {
		return string(id)
	}
	return buf.String()
}

// shut marks the transport closed and reports whether it was open.
func (b *httpBase) shut() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	was := !b.closed
	b.closed = true
	return was
}

// newRequest builds a request with the configured headers.
func (b *httpBase) newRequest(ctx context.Context, method, url string, body []byte) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return nil, err
	}
	for k, v := range b.headers {
		req.Header.Set(k, v)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// head is what a transport reads of an outgoing or incoming message.
type head struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// readHead reads msg's id and method; id is nil for a notification.
func readHead(msg []byte) head {
	var h head
	_ = json.Unmarshal(msg, &h)
	if bytes.Equal(bytes.TrimSpace(h.ID), []byte("null")) {
		h.ID = nil
	}
	return h
}

// isRequest reports whether h is a request (it expects an answer).
func (h head) isRequest() bool { return h.ID != nil && h.Method != "" }

// answers reports whether msg is the answer to the request with JSON id.
func answers(msg []byte, id json.RawMessage) bool {
	h := readHead(msg)
	return h.Method == "" && h.ID != nil && sameID(h.ID, id)
}

// sameID compares two JSON ids, ignoring spacing.
func sameID(a, b json.RawMessage) bool { return compactID(a) == compactID(b) }

// statusError is the error of an HTTP answer with an unusable status; it
// closes the body.
func statusError(resp *http.Response, withSession bool) error {
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	return &HTTPError{StatusCode: resp.StatusCode, Body: strings.TrimSpace(string(body)), session: withSession}
}

// deliverBody hands every message of a successful answer to the receiver:
// one JSON message (or a batch), or the data of a stream of events. It
// reports whether the answer to the request with JSON id came (id nil:
// not asked).
func (b *httpBase) deliverBody(resp *http.Response, id json.RawMessage) (bool, error) {
	answered := false
	deliver := func(msg []byte) {
		msg = bytes.TrimSpace(msg)
		if len(msg) == 0 {
			return
		}
		if id != nil && answers(msg, id) {
			answered = true
		}
		b.rc.Deliver(json.RawMessage(msg))
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/event-stream" {
		err := readEvents(resp.Body, func(ev event) bool {
			if ev.name == "message" {
				deliver(ev.data)
			}
			return true
		})
		return answered, err
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxLine))
	if err != nil {
		return answered, err
	}
	t := bytes.TrimSpace(body)
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return answered, nil // nothing, or not JSON ("Accepted")
	}
	if t[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(t, &batch); err != nil {
			return answered, fmt.Errorf("the answer is not JSON: %w", err)
		}
		for _, m := range batch {
			deliver(m)
		}
		return answered, nil
	}
	deliver(body)
	return answered, nil
}

// post sends one message with extra headers and hands what comes back to
// the receiver. For a request (id not nil) a failure is reported with
// Receiver.Fail; otherwise it is returned. onAnswer sees the response
// before its body is read.
func (b *httpBase) post(ctx context.Context, url string, msg []byte, h head, extra http.Header, onAnswer func(*http.Response) error) error {
	fail := func(err error) error {
		err = transportErr(err)
		if h.isRequest() {
			b.rc.Fail(h.ID, err)
			return nil
		}
		return err
	}
	req, err := b.newRequest(ctx, http.MethodPost, url, msg)
	if err != nil {
		return fail(err)
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range extra {
		req.Header[k] = v
	}
	resp, err := b.client.Do(req)
	if err != nil {
		if ctx.Err() != nil && b.ctx.Err() == nil && h.isRequest() {
			return nil // cancelled by the caller, who has its answer
		}
		return fail(err)
	}
	defer resp.Body.Close()
	if onAnswer != nil {
		if err := onAnswer(resp); err != nil {
			return fail(err)
		}
	}
	var id json.RawMessage
	if h.isRequest() {
		id = h.ID
	}
	answered, err := b.deliverBody(resp, id)
	switch {
	case err != nil && ctx.Err() == nil:
		return fail(fmt.Errorf("reading the answer to %s: %w", h.Method, err))
	case b.inBody && id != nil && !answered && resp.StatusCode != http.StatusAccepted && ctx.Err() == nil:
		return fail(fmt.Errorf("the answer to %s ended without a response", h.Method))
	}
	return nil
}
