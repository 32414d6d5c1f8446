package mcpclient

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
)

// NewStdio is the stdio transport over a server's output (r) and input
// (w), such as a child process's pipes: mcp-go's, with the end of r
// reported as a lost connection. Close closes w, and r when it is an
// io.Closer.
func NewStdio(r io.Reader, w io.WriteCloser) Transport {
	s := &stdio{}
	s.in = &watchedReader{r: r, s: s}
	s.Stdio = transport.NewIO(s.in, w, nil)
	return s
}

// stdio is mcp-go's stdio transport, told when the server's output ends.
type stdio struct {
	*transport.Stdio
	in     *watchedReader
	closed atomic.Bool

	mu   sync.Mutex
	lost func(error)
}

// SetConnectionLostHandler is how mcp-go's client learns of a loss.
func (s *stdio) SetConnectionLostHandler(f func(error)) {
	s.mu.Lock()
	s.lost = f
	s.mu.Unlock()
}

// Close closes the server's input and output.
func (s *stdio) Close() error {
	s.closed.Store(true)
	err := s.Stdio.Close()
	if c, ok := s.in.r.(io.Closer); ok {
		_ = c.Close()
	}
	return err
}

// ended reports the end of the server's output unless Close caused it.
func (s *stdio) ended(err error) {
	if s.closed.Load() {
		return
	}
	s.mu.Lock()
	f := s.lost
	s.mu.Unlock()
	if f != nil {
		f(err)
	}
}

// watchedReader tells its transport when reading the server's output
// fails or ends.
type watchedReader struct {
	r    io.Reader
	s    *stdio
	once sync.Once
}

func (w *watchedReader) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if err != nil {
		w.once.Do(func() {
			if errors.Is(err, io.EOF) {
				err = errors.New("the server closed its output")
			}
			w.s.ended(err)
		})
	}
	return n, err
}

// HTTPOptions configure the HTTP transports.
type HTTPOptions struct {
	// Headers are sent with every request (such as an API key).
	Headers map[string]string
	// Client makes the requests (http.DefaultClient when nil); its
	// transport may add authorization.
	Client *http.Client
	// Listen keeps Streamable HTTP's standalone GET stream open on
	// connections of the handshake era, where server notifications
	// (tools/list_changed…) arrive.
	Listen bool
	// Log receives the transport's log lines (nothing when nil).
	Log *slog.Logger
}

// client is the caller's client with the headers added to every request
// it makes (mcp-go's own header option misses the DELETE that ends a
// session).
func (o HTTPOptions) client() *http.Client {
	c := http.DefaultClient
	if o.Client != nil {
		c = o.Client
	}
	if len(o.Headers) == 0 {
		return c
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	with := *c
	with.Transport = headers{h: o.Headers, next: next}
	return &with
}

// headers adds fixed headers to every request.
type headers struct {
	h    map[string]string
	next http.RoundTripper
}

// RoundTrip sends a copy of req with the headers set.
func (h headers) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for k, v := range h.h {
		req.Header.Set(k, v)
	}
	return h.next.RoundTrip(req)
}

func (o HTTPOptions) log() *slog.Logger {
	if o.Log != nil {
		return o.Log
	}
	return slog.New(slog.DiscardHandler)
}

// NewStreamableHTTP is mcp-go's Streamable HTTP transport to url.
func NewStreamableHTTP(url string, o HTTPOptions) (Transport, error) {
	opts := []transport.StreamableHTTPCOption{
		transport.WithHTTPBasicClient(o.client()),
		transport.WithHTTPLogger(o.log()),
	}
	if !o.Listen {
		return transport.NewStreamableHTTP(url, opts...)
	}
	// The GET stream is how a handshake-era server's notifications arrive;
	// listening below lets 2026-07-28 servers be discovered all the same.
	//lint:ignore SA1019 kept for servers of 2025-11-25 and 2025-06-18
	tr, err := transport.NewStreamableHTTP(url, append(opts, transport.WithContinuousListening())...)
	if err != nil {
		return nil, err
	}
	return listening{tr}, nil
}

// listening is a Streamable HTTP transport that keeps the GET stream
// open on handshake-era connections and still lets the client discover:
// mcp-go opens that stream only once a handshake settled on an older
// version, but by default a transport asked to listen rules discovery out.
type listening struct{ *transport.StreamableHTTP }

// RequiresLegacyProtocol lets the client try server/discover first.
func (listening) RequiresLegacyProtocol() bool { return false }

// NewSSE is mcp-go's legacy HTTP+SSE transport; url is the SSE endpoint.
// It keeps to the initialize handshake: HTTP+SSE predates 2026-07-28,
// whose stateless core it does not carry (mcp-go's SSE server would hold a
// subscriptions/listen open past the client's end).
func NewSSE(url string, o HTTPOptions) (Transport, error) {
	tr, err := transport.NewSSE(url, transport.WithHTTPClient(o.client()), transport.WithSSELogger(o.log()))
	if err != nil {
		return nil, err
	}
	return legacySSE{tr}, nil
}

// legacySSE is mcp-go's SSE transport, which rules out server/discover.
type legacySSE struct{ *transport.SSE }

// RequiresLegacyProtocol keeps the client to the handshake.
func (legacySSE) RequiresLegacyProtocol() bool { return true }
