package acp

import (
	"context"
	"io"
	"log/slog"
	"sync"

	"companion/agent/model"
	"companion/agent/store"
	"companion/config"
	"companion/rpc"
	"companion/tools"
)

// Options configure a Server. Model and Tools are required.
type Options struct {
	// Name and Version describe companion in initialize's agentInfo.
	Name, Version string
	// Config is the configuration at start-up.
	Config config.Config
	// Model returns the model provider for cfg; it is called when a session
	// is created and may build the provider lazily.
	Model func(ctx context.Context, cfg config.Config) (model.Model, error)
	// Tools returns the tool registry for a new session.
	Tools func(cfg config.Config) *tools.Registry
	// ReloadConfig re-reads settings for authenticate; nil keeps Config.
	ReloadConfig func() (config.Config, error)
	Log          *slog.Logger
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
	conn := rpc.NewConn(ctx, stdio{in, out}, c.mux(), rpc.Options{Framing: rpc.Newline, Logger: s.log,
		Inline: []string{MethodInitialize, MethodSessionCancel, MethodIDEContextUpdate}})
	select {
	case <-conn.Done():
	case <-ctx.Done():
		conn.Close()
		<-conn.Done()
	}
	c.closeAll()
	return nil
}

// connState is the state of one client connection.
type connState struct {
	srv *Server

	// mu guards the fields below.
	mu          sync.Mutex
	initialized bool
	caps        ClientCapabilities
	cfg         config.Config
	sessions    map[SessionID]*session
	// sessionStore keeps sessions on disk; opened on first use.
	sessionStore *store.Store
	// ide is the link to a spec-following IDE, when one is found.
	ide *ideLink
	// loggedOut is set by logout until the next authenticate.
	loggedOut bool
}

func newConnState(s *Server) *connState {
	c := &connState{srv: s, cfg: s.opts.Config, sessions: map[SessionID]*session{}}
	c.ide = &ideLink{c: c}
	return c
}

// clientCaps returns what the client advertised in initialize.
func (c *connState) clientCaps() ClientCapabilities {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.caps
}

// config returns the current configuration.
func (c *connState) config() config.Config {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg
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
	if auth && !c.cfg.HasCredentials() {
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.sessions[id]; ok {
		return s, nil
	}
	return nil, &rpc.Error{Code: rpc.CodeResourceNotFound,
		Message: "session " + string(id) + " not found", Data: map[string]any{"sessionId": id}}
}

// closeAll ends every session when the connection goes away.
func (c *connState) closeAll() {
	c.mu.Lock()
	sessions := c.sessions
	c.sessions = map[SessionID]*session{}
	c.mu.Unlock()
	for _, s := range sessions {
		s.close()
	}
	c.ide.close()
}

// mux routes the agent-side ACP methods to their handlers: the schema's
// through the generated registration, then companion's extensions.
func (c *connState) mux() *rpc.Mux {
	m := rpc.NewMux(c.srv.log)
	registerAgentMethods(m, c, c.guard)
	rpc.HandleNotification(m, MethodIDEContextUpdate, c.ideContextUpdate)
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
	if err := store.CheckID(string(id)); err != nil {
		return &rpc.Error{Code: rpc.CodeInvalidParams, Message: "invalid session id: " + err.Error(),
			Data: map[string]any{"sessionId": id}}
	}
	return nil
}
