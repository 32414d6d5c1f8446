package lspclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/sourcegraph/jsonrpc2"
)

// Options configure a Client.
type Options struct {
	// Name and Version name companion to the server.
	Name, Version string
	// Root is the absolute folder the server works in.
	Root string
	// InitializationOptions are the server's own settings, sent as they
	// are; nil sends none.
	InitializationOptions json.RawMessage
	// OnDiagnostics receives every publishDiagnostics notification, in
	// the order the server sent them; it must not block.
	OnDiagnostics func(PublishDiagnostics)
	// Log receives the server's log messages at debug level; nil
	// discards them.
	Log *slog.Logger
}

// Client is one initialized connection to a language server.
type Client struct {
	// Requests are the requests made of the server (Definition, Hover…).
	Requests
	conn *jsonrpc2.Conn
	caps Capabilities
	info ServerInfo
	// next numbers the requests.
	next atomic.Uint64
}

// Start runs the LSP handshake over rwc (the server's stdout and stdin,
// Content-Length framed): initialize, then initialized. It closes rwc
// when the handshake fails; ctx bounds the handshake only.
func Start(ctx context.Context, rwc io.ReadWriteCloser, opts Options) (*Client, error) {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	stream := jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{})
	// The connection outlives ctx: it ends with Close or the server.
	conn := jsonrpc2.NewConn(context.WithoutCancel(ctx), stream, &handler{opts: opts})
	c := &Client{conn: conn}
	c.Requests = Requests{Caller: c}
	params := initializeParams{
		ProcessID: os.Getpid(), ClientInfo: clientInfo{Name: opts.Name, Version: opts.Version},
		RootURI:          FileURI(opts.Root),
		WorkspaceFolders: []WorkspaceFolder{{URI: FileURI(opts.Root), Name: filepath.Base(opts.Root)}},
		Capabilities:     clientCapabilities(), InitializationOptions: opts.InitializationOptions,
	}
	var res initializeResult
	if err := c.call(ctx, "initialize", params, &res); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := conn.Notify(ctx, "initialized", struct{}{}); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("initialized: %w", err)
	}
	c.caps = res.Capabilities
	if res.ServerInfo != nil {
		c.info = *res.ServerInfo
	}
	return c, nil
}

// Capabilities are what the server said it can do.
func (c *Client) Capabilities() Capabilities { return c.caps }

// Info is the server's name and version, when it said.
func (c *Client) Info() ServerInfo { return c.info }

// Done is closed when the connection has ended (the server exited or
// Close was called).
func (c *Client) Done() <-chan struct{} { return c.conn.DisconnectNotify() }

// Shutdown asks the server to stop (shutdown, then exit) and closes the
// connection; ctx bounds the wait for the server's answer.
func (c *Client) Shutdown(ctx context.Context) error {
	err := c.call(ctx, "shutdown", nil, nil)
	if err == nil {
		err = c.conn.Notify(ctx, "exit", nil)
	}
	if cerr := c.conn.Close(); err == nil && !errors.Is(cerr, jsonrpc2.ErrClosed) {
		err = cerr
	}
	return err
}

// Close closes the connection without asking the server.
func (c *Client) Close() error {
	if err := c.conn.Close(); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		return err
	}
	return nil
}

// Call sends a request and decodes its result into out (nil: ignored);
// it makes Client a Caller.
func (c *Client) Call(ctx context.Context, method string, params, out any) error {
	return c.call(ctx, method, params, out)
}

// call sends a request and decodes its result into out (nil: ignored). A
// cancelled ctx also tells the server ($/cancelRequest).
func (c *Client) call(ctx context.Context, method string, params, out any) error {
	id := c.next.Add(1)
	err := c.conn.Call(ctx, method, params, out, jsonrpc2.PickID(jsonrpc2.ID{Num: id}))
	if err != nil && ctx.Err() != nil {
		_ = c.conn.Notify(context.WithoutCancel(ctx), "$/cancelRequest", map[string]any{"id": id})
	}
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		if retrigger(rpcErr) {
			return fmt.Errorf("%w: %s", ErrRetrigger, rpcErr.Message)
		}
		return fmt.Errorf("%w: %s (code %d)", ErrServer, rpcErr.Message, rpcErr.Code)
	}
	return err
}

// codeServerCancelled is LSP's error code for a request the server
// cancelled itself.
const codeServerCancelled = -32802

// retrigger reports whether an error answer is ServerCancelled with
// retriggerRequest set (a pull for diagnostics the server wants repeated).
func retrigger(e *jsonrpc2.Error) bool {
	if e.Code != codeServerCancelled || e.Data == nil {
		return false
	}
	var data struct {
		RetriggerRequest bool `json:"retriggerRequest"`
	}
	return json.Unmarshal(*e.Data, &data) == nil && data.RetriggerRequest
}
