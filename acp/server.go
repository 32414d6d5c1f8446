package acp

import (
	"context"
	"io"
	"log/slog"
	"sync"

	"companion/config"
	"companion/host"
	"companion/rpc"
)

// Options configure a Server: the host's (Model and Tools are required;
// the IDE link is always on) and what only ACP needs.
type Options struct {
	host.Options
	// ReloadConfig re-reads settings for authenticate; nil keeps Config.
	ReloadConfig func() (config.Config, error)
}

// Server is companion's ACP agent. One Server serves one connection.
type Server struct {
	opts Options
	log  *slog.Logger
}

// NewServer returns a server; it does no I/O.
func NewServer(opts Options) *Server {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Server{opts: opts, log: opts.Log}
}

// Serve speaks ACP (newline-delimited JSON-RPC) on in and out until in
// reaches EOF or ctx is cancelled. It closes every session before returning.
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	c := newConnState(s)
	defer c.host.Close()
	conn := rpc.NewConn(ctx, stdio{in, out}, c.mux(), rpc.Options{Framing: rpc.Newline, Logger: s.log,
		Inline: []string{MethodInitialize, MethodSessionCancel, MethodIDEContextUpdate},
		Redact: s.opts.Redact}) // secrets out of answers, errors and session/update
	select {
	case <-conn.Done():
	case <-ctx.Done():
		conn.Close()
		<-conn.Done()
	}
	return nil
}

// connState is the state of one client connection.
type connState struct {
	srv *Server

	// host builds and keeps the connection's sessions, its settings, the
	// session store and the IDE link.
	host *host.Host

	// mu guards the fields below.
	mu          sync.Mutex
	initialized bool
	caps        ClientCapabilities
	// loggedOut is set by logout until the next authenticate.
	loggedOut bool
}

func newConnState(s *Server) *connState {
	ho := s.opts.Options
	ho.IDE, ho.Log = true, s.log
	h := host.New(ho)
	return &connState{srv: s, host: h}
}

// clientCaps returns what the client advertised in initialize.
func (c *connState) clientCaps() ClientCapabilities {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caps
}

// ready checks that initialize came first and, when auth is set, that
// credentials are known.
func (c *connState) ready(auth bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.initialized {
		return rpc.Errorf(rpc.CodeInvalidRequest, "initialize must be called before any other method")
	}
	if auth && c.loggedOut {
		return rpc.Errorf(rpc.CodeAuthRequired, "authentication required: logged out; authenticate again")
	}
	if cfg := c.host.Config(); auth && !cfg.HasCredentials() {
		return rpc.Errorf(rpc.CodeAuthRequired, "authentication required: set GEMINI_API_KEY (or GOOGLE_API_KEY, or Vertex AI settings) for companion, then authenticate")
	}
	return nil
}

// session finds a live session, or answers -32602 for an id that cannot
// name one and -32002 for an unknown one.
func (c *connState) session(id SessionID) (*session, error) {
	if err := checkSessionID(id); err != nil {
		return nil, err
	}
	if hs, ok := c.host.Session(string(id)); ok {
		return c.view(hs), nil
	}
	return nil, &rpc.Error{Code: rpc.CodeResourceNotFound,
		Message: "session " + string(id) + " not found", Data: map[string]any{"sessionId": id}}
}

// mux routes the agent-side ACP methods to their handlers: the schema's
// through the generated registration, then companion's extensions.
func (c *connState) mux() *rpc.Mux {
	m := rpc.NewMux(c.srv.log)
	registerAgentMethods(m, c, c.guard)
	rpc.HandleNotification(m, MethodIDEContextUpdate, c.ideContextUpdate)
	c.registerExtensions(m)
	c.registerStats(m)
	return m
}

// guard is what a request needs before its handler runs: initialize
// first, and credentials for the methods that reach a model.
func (c *connState) guard(method string) error {
	switch method {
	case MethodInitialize:
		return nil
	case MethodSessionNew, MethodSessionPrompt, MethodSessionSetMode, MethodSessionSetConfigOption,
		MethodSessionLoad, MethodSessionResume:
		return c.ready(true)
	}
	return c.ready(false)
}

// stdio joins a reader and a writer into the ReadWriteCloser rpc wants.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes both sides when they can be closed.
func (s stdio) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		c.Close()
	}
	if c, ok := s.Writer.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// checkSessionID answers -32602 (invalid params) for a session id that is
// malformed: one companion never hands out and the store cannot hold.
func checkSessionID(id SessionID) error {
	if err := host.CheckID(string(id)); err != nil {
		return &rpc.Error{Code: rpc.CodeInvalidParams, Message: "invalid session id: " + err.Error(),
			Data: map[string]any{"sessionId": id}}
	}
	return nil
}
