package mcpclient

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
)

// Transport carries JSON-RPC messages between a Client and one server.
// The Client calls Start once, then Send from any goroutines at once, then
// Close.
type Transport interface {
	// Start opens the transport and from then on hands every message the
	// server sends to r, until Close or until the transport reports Lost.
	// It returns once messages can be sent (legacy SSE: when the server
	// named its message endpoint); ctx bounds that wait only.
	Start(ctx context.Context, r Receiver) error
	// Send hands one JSON-RPC message (request, notification or
	// response) to the server. It must not wait for the answer to a
	// request: the answer arrives through the Receiver, and the server
	// may need an answer of ours first (an elicitation during a tool
	// call). When a request cannot reach the server after Send returned,
	// the transport reports Receiver.Fail for its id. ctx bounds the
	// sending of a notification or response.
	Send(ctx context.Context, msg json.RawMessage) error
	// Close ends the transport and every goroutine it started.
	Close() error
}

// Receiver takes what a Transport receives. Its methods are safe for
// concurrent use; they block only while the client is behind, and return
// at once after it closed.
type Receiver interface {
	// Deliver hands one message from the server to the client.
	Deliver(msg json.RawMessage)
	// Fail ends the request with JSON id (as sent) with err: the request
	// could not be delivered or its answer cannot arrive.
	Fail(id json.RawMessage, err error)
	// Lost reports that the connection ended for good (err says why); the
	// client closes and reports its connection lost once.
	Lost(err error)
}

// SessionTransport is a Transport that learns of the MCP session:
// Initialized is called once the handshake is done, with the protocol
// version the server chose (Streamable HTTP sends it in a header from then
// on and opens its listening stream).
type SessionTransport interface {
	Transport
	Initialized(protocolVersion string)
}

// item is one entry of the inbox: a message, or the end of the stream.
type item struct {
	msg json.RawMessage
	err error
}

// inbox is the jsonrpc2.ObjectStream the client's Conn runs on: writes go
// to the transport, reads come from what the transport delivered.
type inbox struct {
	tr  Transport
	log *slog.Logger
	// failed records the transport error of each failed request by id.
	failed func(id string, err error)
	// lost records why the connection ended.
	lost func(err error)
	ch   chan item
	// done is closed by Close; pending deliveries give up.
	done      chan struct{}
	closeOnce sync.Once
	lostOnce  sync.Once
	ctx       context.Context
}

func newInbox(ctx context.Context, tr Transport, log *slog.Logger, failed func(string, error), lost func(error)) *inbox {
	return &inbox{tr: tr, log: log, failed: failed, lost: lost, ch: make(chan item, 16), done: make(chan struct{}), ctx: ctx}
}

// Deliver implements Receiver.
func (b *inbox) Deliver(msg json.RawMessage) { b.put(item{msg: msg}) }

// Fail implements Receiver: it records err for the id and answers the
// request with an error response, so that the pending call ends.
func (b *inbox) Fail(id json.RawMessage, err error) {
	if len(id) == 0 {
		return
	}
	b.failed(compactID(id), err)
	resp, mErr := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": codeTransportFailed, "message": err.Error()},
	})
	if mErr == nil {
		b.put(item{msg: resp})
	}
}

// Lost implements Receiver; only the first report counts.
func (b *inbox) Lost(err error) {
	if err == nil {
		err = errors.New("connection closed")
	}
	b.lostOnce.Do(func() {
		err = transportErr(err)
		b.lost(err)
		b.put(item{err: err})
	})
}

func (b *inbox) put(it item) {
	select {
	case b.ch <- it:
	case <-b.done:
	}
}

// codeTransportFailed marks the error responses Fail makes; the client
// replaces them by the recorded transport error.
const codeTransportFailed = -32099

// WriteObject implements jsonrpc2.ObjectStream.
func (b *inbox) WriteObject(obj any) error {
	raw, err := json.Marshal(obj)
	if err != nil {
		return err
	}
	select {
	case <-b.done:
		return ErrClosed
	default:
	}
	if err := b.tr.Send(b.ctx, raw); err != nil {
		return transportErr(err)
	}
	return nil
}

// ReadObject implements jsonrpc2.ObjectStream. A message that is not
// JSON-RPC is logged and skipped, so one bad line does not end the
// connection.
func (b *inbox) ReadObject(v any) error {
	for {
		select {
		case it := <-b.ch:
			if it.err != nil {
				return it.err
			}
			if err := json.Unmarshal(it.msg, v); err != nil {
				b.log.Warn("mcp: dropped a message from the server that is not JSON-RPC", "err", err, "message", clip(it.msg))
				continue
			}
			return nil
		case <-b.done:
			return ErrClosed
		}
	}
}

// Close implements jsonrpc2.ObjectStream: it stops deliveries, then closes
// the transport.
func (b *inbox) Close() error {
	var err error
	b.closeOnce.Do(func() {
		close(b.done)
		err = b.tr.Close()
	})
	return err
}

// clip shortens a message for a log line.
func clip(b []byte) string {
	const max = 200
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
