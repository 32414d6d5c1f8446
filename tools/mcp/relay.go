package mcp

import (
	"bytes"
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

// relayTransport carries an MCP client's messages over a Relay: a request
// is relayed and its response returned; what the server sends on its own
// is a notification, or a request (sampling, elicitation…) answered by the
// client's handler and relayed back.
type relayTransport struct {
	relay Relay
	// ctx ends with Close; the answers to server requests run under it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// mu guards the fields below.
	mu       sync.Mutex
	notify   func(mcpgo.JSONRPCNotification)
	requests transport.RequestHandler
	closed   bool
}

func newRelayTransport(r Relay) *relayTransport {
	ctx, cancel := context.WithCancel(context.Background())
	return &relayTransport{relay: r, ctx: ctx, cancel: cancel}
}

// Start routes what the server sends on its own to the client; the relay
// itself is up as long as its client is.
func (t *relayTransport) Start(context.Context) error {
	t.relay.OnMessage(t.received)
	return nil
}

// SendRequest relays a request and returns the server's response.
func (t *relayTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if t.isClosed() {
		return nil, errConnClosed
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("relay: %s: %w", req.Method, err)
	}
	out, err := t.relay.Send(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("relay: %s: %w", req.Method, err)
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, fmt.Errorf("relay: %s: no response", req.Method)
	}
	var resp transport.JSONRPCResponse
	if err := json.Unmarshal(out, &resp); err != nil {
		return nil, fmt.Errorf("relay: %s: the response is not JSON-RPC: %w", req.Method, err)
	}
	return &resp, nil
}

// SendNotification relays a notification.
func (t *relayTransport) SendNotification(ctx context.Context, n mcpgo.JSONRPCNotification) error {
	if t.isClosed() {
		return errConnClosed
	}
	raw, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("relay: %s: %w", n.Method, err)
	}
	if _, err := t.relay.Send(ctx, raw); err != nil {
		return fmt.Errorf("relay: %s: %w", n.Method, err)
	}
	return nil
}

// SetNotificationHandler implements transport.Interface.
func (t *relayTransport) SetNotificationHandler(f func(mcpgo.JSONRPCNotification)) {
	t.mu.Lock()
	t.notify = f
	t.mu.Unlock()
}

// SetRequestHandler implements transport.BidirectionalInterface.
func (t *relayTransport) SetRequestHandler(h transport.RequestHandler) {
	t.mu.Lock()
	t.requests = h
	t.mu.Unlock()
}

// GetSessionId implements transport.Interface: a relay has no session.
func (t *relayTransport) GetSessionId() string { return "" }

// relayHead is what the transport reads of an incoming message.
type relayHead struct {
	ID     *mcpgo.RequestId `json:"id"`
	Method string           `json:"method"`
}

// received hands a message the server sent on its own to the client.
func (t *relayTransport) received(raw json.RawMessage) {
	var h relayHead
	if json.Unmarshal(raw, &h) != nil || h.Method == "" {
		return
	}
	t.mu.Lock()
	notify, requests, closed := t.notify, t.requests, t.closed
	if h.ID != nil && !closed {
		t.wg.Add(1)
	}
	t.mu.Unlock()
	switch {
	case closed:
	case h.ID == nil:
		var n mcpgo.JSONRPCNotification
		if notify != nil && json.Unmarshal(raw, &n) == nil {
			notify(n)
		}
	default:
		go func() {
			defer t.wg.Done()
			t.answer(raw, requests)
		}()
	}
}

// answer runs the client's handler for a server request and relays its
// answer.
func (t *relayTransport) answer(raw json.RawMessage, h transport.RequestHandler) {
	var req transport.JSONRPCRequest
	if err := json.Unmarshal(raw, &req); err != nil {
		return
	}
	resp := transport.NewJSONRPCErrorResponse(req.ID, mcpgo.METHOD_NOT_FOUND, "no handler for "+req.Method, nil)
	if h != nil {
		out, err := h(t.ctx, req)
		switch {
		case err != nil:
			resp = transport.NewJSONRPCErrorResponse(req.ID, mcpgo.INTERNAL_ERROR, err.Error(), nil)
		case out != nil:
			resp = out
		}
	}
	msg, err := json.Marshal(resp)
	if err == nil {
		_, _ = t.relay.Send(t.ctx, msg)
	}
}

func (t *relayTransport) isClosed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.closed
}

// Close stops relaying and waits for the answers under way to end; the
// server itself belongs to the client.
func (t *relayTransport) Close() error {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.cancel()
	t.wg.Wait()
	return nil
}
