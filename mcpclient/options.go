package mcpclient

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"
)

// RequestHandler answers one request the server makes of the client (such
// as elicitation/create). params are the request's params, nil when it has
// none. The result is encoded as the answer; an *Error is sent as it is,
// any other error as an internal error with its message. ctx ends when the
// server cancels the request or the client closes.
type RequestHandler func(ctx context.Context, params json.RawMessage) (any, error)

// ElicitationHandler answers elicitation/create.
type ElicitationHandler func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

// Option configures a Client.
type Option func(*options)

// options is what the Options set.
type options struct {
	info     mcp.Implementation
	version  string
	caps     mcp.ClientCapabilities
	handlers map[string]RequestHandler
	notify   func(mcp.JSONRPCNotification)
	lost     func(error)
	log      *slog.Logger
}

func defaultOptions() options {
	return options{
		info:     mcp.Implementation{Name: "companion"},
		version:  mcp.LATEST_LEGACY_PROTOCOL_VERSION,
		handlers: map[string]RequestHandler{},
		log:      slog.New(slog.DiscardHandler),
	}
}

// WithClientInfo sets the name and version the client introduces itself
// with.
func WithClientInfo(info mcp.Implementation) Option { return func(o *options) { o.info = info } }

// WithProtocolVersion sets the protocol version the client asks for
// (mcp.LATEST_LEGACY_PROTOCOL_VERSION by default: the initialize handshake).
func WithProtocolVersion(v string) Option { return func(o *options) { o.version = v } }

// WithCapabilities sets the capabilities the client declares. Handlers
// added with WithElicitation declare theirs on top.
func WithCapabilities(caps mcp.ClientCapabilities) Option { return func(o *options) { o.caps = caps } }

// WithRequestHandler answers the server's requests of method with h (roots/list,
// sampling/createMessage…). ping is always answered by the client itself;
// methods without a handler get "method not found".
func WithRequestHandler(method string, h RequestHandler) Option {
	return func(o *options) { o.handlers[method] = h }
}

// WithElicitation answers elicitation/create with h and declares the
// elicitation capability (form mode) unless WithCapabilities declared one.
func WithElicitation(h ElicitationHandler) Option {
	return func(o *options) { o.handlers[string(mcp.MethodElicitationCreate)] = elicitation(h) }
}

// WithNotificationHandler receives every notification from the server. It
// runs on the client's read loop, one at a time and in order: it must not
// block nor call the client.
func WithNotificationHandler(f func(mcp.JSONRPCNotification)) Option {
	return func(o *options) { o.notify = f }
}

// WithConnectionLost is called once when the connection ends without
// Close (a server that exited, a stream that broke), with the reason (an
// error wrapping ErrTransport). It runs on a goroutine of the client that
// Close waits for: it must not call Close itself.
func WithConnectionLost(f func(error)) Option { return func(o *options) { o.lost = f } }

// WithLogger sets where the client logs (nothing by default).
func WithLogger(l *slog.Logger) Option {
	return func(o *options) {
		if l != nil {
			o.log = l
		}
	}
}

// elicitation adapts an ElicitationHandler to a RequestHandler.
func elicitation(h ElicitationHandler) RequestHandler {
	return func(ctx context.Context, params json.RawMessage) (any, error) {
		req := mcp.ElicitationRequest{Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)}}
		if len(params) > 0 {
			if err := json.Unmarshal(params, &req.Params); err != nil {
				return nil, &Error{Code: mcp.INVALID_PARAMS, Message: "invalid elicitation params: " + err.Error()}
			}
		}
		if err := req.Params.Validate(); err != nil {
			return nil, &Error{Code: mcp.INVALID_PARAMS, Message: "invalid elicitation params: " + err.Error()}
		}
		res, err := h(ctx, req)
		if err != nil {
			return nil, err
		}
		if res == nil {
			return nil, &Error{Code: mcp.INTERNAL_ERROR, Message: "no elicitation result"}
		}
		return res, nil
	}
}
