package mcpclient

import (
	"context"
	"log/slog"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// ElicitationHandler answers elicitation/create (form or URL mode).
type ElicitationHandler func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

// Elicit lets an ElicitationHandler serve as mcp-go's handler.
func (h ElicitationHandler) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return h(ctx, req)
}

// SamplingHandler answers sampling/createMessage.
type SamplingHandler func(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error)

// CreateMessage lets a SamplingHandler serve as mcp-go's handler.
func (h SamplingHandler) CreateMessage(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
	return h(ctx, req)
}

// RootsHandler answers roots/list.
type RootsHandler func(ctx context.Context) ([]mcp.Root, error)

// ListRoots lets a RootsHandler serve as mcp-go's handler.
func (h RootsHandler) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	roots, err := h(ctx)
	if err != nil {
		return nil, err
	}
	return &mcp.ListRootsResult{Roots: roots}, nil
}

// Option configures a Client.
type Option func(*options)

// options is what the Options set.
type options struct {
	info            mcp.Implementation
	version         string
	caps            mcp.ClientCapabilities
	elicit          ElicitationHandler
	sampling        SamplingHandler
	roots           RootsHandler
	notify          func(mcp.JSONRPCNotification)
	lost            func(error)
	log             *slog.Logger
	discoverTimeout time.Duration
}

func defaultOptions() options {
	return options{
		info: mcp.Implementation{Name: "companion"},
		log:  slog.New(slog.DiscardHandler),
	}
}

// WithClientInfo sets the name and version the client introduces itself
// with.
func WithClientInfo(info mcp.Implementation) Option { return func(o *options) { o.info = info } }

// WithProtocolVersion pins the protocol version. By default the client
// asks for the newest and falls back; a version before 2026-07-28 skips
// server/discover and keeps to the initialize handshake.
func WithProtocolVersion(v string) Option { return func(o *options) { o.version = v } }

// WithDiscoverTimeout bounds the wait for the answer to server/discover,
// after which the server is taken to predate it and the handshake follows
// (mcp-go's default, 5 s, when unset). A stdio server that ignores
// unknown methods costs start-up this long.
func WithDiscoverTimeout(d time.Duration) Option { return func(o *options) { o.discoverTimeout = d } }

// WithCapabilities sets the capabilities the client declares. The handlers
// below declare theirs when these leave them out.
func WithCapabilities(caps mcp.ClientCapabilities) Option { return func(o *options) { o.caps = caps } }

// WithElicitation answers elicitation/create with h and declares the
// elicitation capability (form mode) unless WithCapabilities declared one.
func WithElicitation(h ElicitationHandler) Option { return func(o *options) { o.elicit = h } }

// WithSampling answers sampling/createMessage with h and declares the
// sampling capability.
func WithSampling(h SamplingHandler) Option { return func(o *options) { o.sampling = h } }

// WithRoots answers roots/list with h and declares the roots capability
// (with listChanged).
func WithRoots(h RootsHandler) Option { return func(o *options) { o.roots = h } }

// WithNotificationHandler receives every notification from the server. It
// runs on the transport's read loop, one at a time: it must not block nor
// call the client.
func WithNotificationHandler(f func(mcp.JSONRPCNotification)) Option {
	return func(o *options) { o.notify = f }
}

// WithConnectionLost is called once when the connection ends without
// Close (a stdio server whose output ended, a legacy SSE stream that
// broke, a Streamable HTTP session the server forgot), with the reason
// (an error wrapping ErrTransport). It must not call Close itself.
func WithConnectionLost(f func(error)) Option { return func(o *options) { o.lost = f } }

// WithLogger sets where the client and its transport log (nothing by
// default).
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.log = l
		}
	}
}
