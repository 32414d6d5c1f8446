package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// maxBody bounds a request body; real requests with images stay far below.
const maxBody = 64 << 20

// Recorded is one request a server received, for tests to assert on.
type Recorded struct {
	// Method is the Gemini method (streamGenerateContent, generateContent
	// or countTokens), or "chat/completions" or "models" on the
	// OpenAI-shaped server.
	Method string
	// Path is the URL path, e.g. /v1beta/models/gemini-2.5-pro:generateContent.
	Path string
	// Query is the raw query string, e.g. alt=sse.
	Query string
	// APIKey is the key sent in x-goog-api-key or ?key=, or the token of
	// the Authorization: Bearer header on the OpenAI-shaped server.
	APIKey string
	// Body is the decoded JSON body (nil if it was not JSON).
	Body map[string]any
	// Raw is the body as sent.
	Raw []byte
}

// shape is what a wire shape decides outside its turns.
type shape struct {
	// label names the server in logs: "scripted" or "scripted OpenAI".
	label string
	// fail writes t's HTTP error in the shape's error body.
	fail func(w http.ResponseWriter, t *Turn)
	// userText is the last user text of a decoded request body, for the
	// echo fallback.
	userText func(body map[string]any) string
}

// core is what both servers share: the listener, the turn bookkeeping and
// the recorded requests. It is safe for concurrent requests; each server
// embeds it and adds its routes and wire shape.
type core struct {
	script *Script
	log    *slog.Logger
	shape  shape
	srv    *http.Server
	url    string

	// handlers tracks running handlers so Close can wait for them;
	// inFlight counts them for tests.
	handlers sync.WaitGroup
	inFlight atomic.Int64

	// mu guards used, requests and closed, and orders handlers.Add before
	// the Wait in Close.
	mu       sync.Mutex
	used     []int // per turn, requests answered so far
	requests []Recorded
	closed   bool
}

// newCore prepares to serve s in shape sh. A nil s is an empty script
// (every request gets the fallback); a nil log discards logs.
func newCore(s *Script, log *slog.Logger, sh shape) *core {
	if s == nil {
		s = &Script{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &core{script: s, log: log, shape: sh, used: make([]int, len(s.Turns))}
}

// start listens on 127.0.0.1 on a free port and serves h, the server that
// embeds c.
func (c *core) start(h http.Handler) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("scripted: listen: %w", err)
	}
	c.url = "http://" + ln.Addr().String()
	c.srv = &http.Server{Handler: h, ErrorLog: slog.NewLogLogger(c.log.Handler(), slog.LevelDebug)}
	go func() {
		if err := c.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			c.log.Error(c.shape.label+" server stopped", slog.Any("error", err))
		}
	}()
	return nil
}

// Close stops the server, ends open streams (hanging ones included) and
// waits for their handlers to return.
func (c *core) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	if err := c.srv.Close(); err != nil {
		c.log.Debug("scripted server close", slog.Any("error", err))
	}
	c.handlers.Wait()
}

// Requests returns a copy of the requests received so far, in order.
func (c *core) Requests() []Recorded {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Recorded(nil), c.requests...)
}

// handle admits a request unless the server is closing, tracking its
// handler so that Close can wait for it; reads and records the body in rec,
// which carries the method and key; and passes it on to route.
func (c *core) handle(w http.ResponseWriter, r *http.Request, rec Recorded, route func(http.ResponseWriter, *http.Request, *Recorded)) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		c.shape.fail(w, &Turn{Status: http.StatusServiceUnavailable, Message: "the scripted server is closing"})
		return
	}
	c.handlers.Add(1)
	c.mu.Unlock()
	c.inFlight.Add(1)
	defer func() {
		c.inFlight.Add(-1)
		c.handlers.Done()
	}()
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		c.shape.fail(w, &Turn{Status: http.StatusBadRequest, Message: "could not read the request body"})
		return
	}
	rec.Path, rec.Query, rec.Raw = r.URL.Path, r.URL.RawQuery, raw
	_ = json.Unmarshal(raw, &rec.Body) // Body stays nil for non-JSON; route checks
	c.mu.Lock()
	c.requests = append(c.requests, rec)
	c.mu.Unlock()
	c.log.Debug(c.shape.label+" request", slog.String("path", r.URL.Path), slog.Int("bytes", len(raw)))
	route(w, r, &rec)
}

// next is the turn that answers rec: the first with answers left whose
// Match occurs in the body, else the fallback (an echo of the user's last
// text, or a 500 when the script says so). nil means that an error was
// written instead: the fallback's, or the turn's own HTTP error.
func (c *core) next(w http.ResponseWriter, rec *Recorded) *Turn {
	turn := c.take(rec.Raw)
	if turn == nil {
		if c.script.Fallback == FallbackError {
			c.shape.fail(w, &Turn{Status: http.StatusInternalServerError, Message: "the scripted model ran out of turns"})
			return nil
		}
		turn = &Turn{Chunks: []Chunk{{Text: "(demo model) You said: " + c.shape.userText(rec.Body)}}}
	}
	if turn.Status != 0 {
		c.shape.fail(w, turn)
		return nil
	}
	return turn
}

// take claims the first turn with answers left whose Match occurs in raw.
func (c *core) take(raw []byte) *Turn {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.script.Turns {
		t := &c.script.Turns[i]
		if c.used[i] < t.times() && (t.Match == "" || bytes.Contains(raw, []byte(t.Match))) {
			c.used[i]++
			return t
		}
	}
	return nil
}
