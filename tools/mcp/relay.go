package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Relay carries JSON-RPC messages to and from an MCP server that lives in
// companion's client (an SDK process), not in a process or at a URL of
// its own.
type Relay interface {
	// Send delivers one JSON-RPC message to the server and returns its
	// response; for a notification the response is ignored.
	Send(ctx context.Context, message json.RawMessage) (json.RawMessage, error)
	// OnMessage sets where the messages the server sends on its own
	// (notifications) go; the relay calls it for each.
	OnMessage(func(message json.RawMessage))
}

// relayTransport adapts a Relay to mcp-go's client transport.
type relayTransport struct {
	relay Relay

	mu     sync.Mutex
	notify func(mcpgo.JSONRPCNotification)
	closed bool
}

func newRelayTransport(r Relay) *relayTransport {
	t := &relayTransport{relay: r}
	r.OnMessage(t.received)
	return t
}

// Start has nothing to open: the relay is up as long as its client is.
func (t *relayTransport) Start(context.Context) error { return nil }

// SendRequest relays a request and decodes the server's response.
func (t *relayTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("relay: encoding %s: %w", req.Method, err)
	}
	out, err := t.relay.Send(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("relay: %s: %w", req.Method, err)
	}
	var resp transport.JSONRPCResponse
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("relay: %s: the response is not JSON-RPC: %w", req.Method, err)
	}
	return &resp, nil
}

// SendNotification relays a notification.
func (t *relayTransport) SendNotification(ctx context.Context, n mcpgo.JSONRPCNotification) error {
	if err := t.check(); err != nil {
		return err
	}
	raw, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("relay: encoding %s: %w", n.Method, err)
	}
	_, err = t.relay.Send(ctx, raw)
	return err
}

// SetNotificationHandler sets where the server's notifications go.
func (t *relayTransport) SetNotificationHandler(h func(mcpgo.JSONRPCNotification)) {
	t.mu.Lock()
	t.notify = h
	t.mu.Unlock()
}

// received hands a message the server sent on its own to the client;
// anything but a notification is dropped (the relay has no requests from
// the server to answer).
func (t *relayTransport) received(raw json.RawMessage) {
	var n mcpgo.JSONRPCNotification
	if json.Unmarshal(raw, &n) != nil || n.Method == "" {
		return
	}
	t.mu.Lock()
	h, closed := t.notify, t.closed
	t.mu.Unlock()
	if h != nil && !closed {
		h(n)
	}
}

func (t *relayTransport) check() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errConnClosed
	}
	return nil
}

// Close stops relaying; the server itself belongs to the client.
func (t *relayTransport) Close() error {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	return nil
}

// GetSessionId is empty: relayed servers have no transport session.
func (t *relayTransport) GetSessionId() string { return "" }
