package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"companion/mcpclient"
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

// relayTransport adapts a Relay to an mcpclient transport: a request is
// relayed from a goroutine of its own and its response delivered as the
// server's answer.
type relayTransport struct {
	relay Relay
	// ctx ends with Close; relayed requests run under it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// mu guards rc and closed.
	mu     sync.Mutex
	rc     mcpclient.Receiver
	closed bool
}

func newRelayTransport(r Relay) *relayTransport {
	ctx, cancel := context.WithCancel(context.Background())
	return &relayTransport{relay: r, ctx: ctx, cancel: cancel}
}

// Start routes what the server sends on its own to rc; the relay itself
// is up as long as its client is.
func (t *relayTransport) Start(_ context.Context, rc mcpclient.Receiver) error {
	t.mu.Lock()
	t.rc = rc
	t.mu.Unlock()
	t.relay.OnMessage(t.received)
	return nil
}

// relayHead is what the transport reads of an outgoing message.
type relayHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// Send relays msg. A request's response is delivered when it comes; a
// notification or response is relayed before Send returns.
func (t *relayTransport) Send(ctx context.Context, msg json.RawMessage) error {
	var h relayHead
	_ = json.Unmarshal(msg, &h)
	isRequest := len(h.ID) > 0 && !bytes.Equal(h.ID, []byte("null")) && h.Method != ""
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return errConnClosed
	}
	rc := t.rc
	if !isRequest {
		t.mu.Unlock()
		if _, err := t.relay.Send(ctx, msg); err != nil {
			return fmt.Errorf("relay: %s: %w", h.Method, err)
		}
		return nil
	}
	t.wg.Add(1)
	t.mu.Unlock()
	go func() {
		defer t.wg.Done()
		out, err := t.relay.Send(t.ctx, msg)
		switch {
		case err != nil:
			rc.Fail(h.ID, fmt.Errorf("relay: %s: %w", h.Method, err))
		case len(bytes.TrimSpace(out)) > 0:
			rc.Deliver(out)
		default:
			rc.Fail(h.ID, fmt.Errorf("relay: %s: no response", h.Method))
		}
	}()
	return nil
}

// received hands a message the server sent on its own to the client.
func (t *relayTransport) received(raw json.RawMessage) {
	t.mu.Lock()
	rc, closed := t.rc, t.closed
	t.mu.Unlock()
	if rc != nil && !closed {
		rc.Deliver(raw)
	}
}

// Close stops relaying and waits for the requests under way to end; the
// server itself belongs to the client.
func (t *relayTransport) Close() error {
	t.mu.Lock()
	t.closed = true
	t.mu.Unlock()
	t.cancel()
	t.wg.Wait()
	return nil
}
