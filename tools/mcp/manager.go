package mcp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"companion/tools"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// Options tune a Manager. Zero values take the defaults given.
type Options struct {
	// Log receives diagnostics; nil discards them.
	Log *slog.Logger
	// ClientName and ClientVersion are what companion calls itself in the
	// MCP handshake (default "companion", "dev").
	ClientName, ClientVersion string
	// OnChange is called (from a background goroutine, one call at a time)
	// whenever the tools, prompts or a server's status change, so that the
	// agent reads Tools and Prompts again. It must not call Close.
	OnChange func()
	// Elicit, when set, lets servers ask the user for input (form mode);
	// nil: companion tells servers it cannot ask.
	Elicit Elicitor
	// Auth, when set, authorizes HTTP and SSE servers with OAuth (see
	// NewAuth); nil: a server's 401 is a failure like any other.
	Auth *Auth
	// OnState is called (from a background goroutine, one call at a time,
	// never together with OnChange) once for each change of a server's
	// availability: down, back, given up. It must not call Close.
	OnState func(StateChange)
	// Roots, when set, are the session's roots (absolute directories):
	// companion then declares the roots capability and answers roots/list
	// with them; RootsChanged tells the servers when they change.
	Roots func() []string
	// Sampler, when set, lets servers ask for a completion from the
	// session's model (sampling/createMessage); nil: companion tells
	// servers it cannot.
	Sampler Sampler
	// Trusted reports whether the session's workspace is trusted now; a
	// server's Trust skips confirmations only while it does. Nil means
	// trusted.
	Trusted func() bool
	// ConnectTimeout bounds the handshake and each listing of tools and
	// prompts (default 30 s).
	ConnectTimeout time.Duration
	// MaxRestarts is how many times a failing server is started again
	// within RestartWindow before it is left failed (default 5; negative:
	// never restart).
	MaxRestarts int
	// RestartWindow is the span MaxRestarts counts restarts in (default
	// 10 min).
	RestartWindow time.Duration
	// Backoff is the wait before the first restart, doubled for each
	// further restart within the window up to MaxBackoff (defaults 1 s and
	// 60 s).
	Backoff, MaxBackoff time.Duration
	// Now and After are the clock of the restart window and backoff
	// (default time.Now and time.After); tests replace them.
	Now   func() time.Time
	After func(time.Duration) <-chan time.Time
	// StopGrace is how long a stdio server has to exit after SIGTERM before
	// its process group is killed (default 1 s).
	StopGrace time.Duration
}

// withDefaults fills in the zero fields of o.
func (o Options) withDefaults() Options {
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.ClientName == "" {
		o.ClientName = "companion"
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	setDefault(&o.ConnectTimeout, 30*time.Second)
	setDefault(&o.Backoff, time.Second)
	setDefault(&o.MaxBackoff, time.Minute)
	setDefault(&o.RestartWindow, 10*time.Minute)
	setDefault(&o.StopGrace, time.Second)
	if o.MaxRestarts == 0 {
		o.MaxRestarts = 5
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.After == nil {
		o.After = time.After
	}
	return o
}

// setDefault sets *d to def when it is not positive.
func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}

// Manager owns the MCP servers of one session: it connects them, restarts
// them when they fail, and offers their tools, prompts and resources. It is
// safe for concurrent use.
type Manager struct {
	opts    Options
	servers []*server
	byName  map[string]*server
	// readTool and listTool are mcp_read_resource and list_mcp_resources,
	// offered while a server has resources.
	readTool, listTool tools.Tool

	// mu guards the fields below. Lock order: mu before a server's mu.
	mu      sync.Mutex
	started bool
	closed  bool
	cancel  context.CancelFunc
	toolset []tools.Tool
	// sentRoots are the roots the servers last heard of.
	sentRoots []string
	// runCtx is the servers' context, from Start until Close.
	runCtx context.Context

	// wg counts the servers' supervisor goroutines.
	wg sync.WaitGroup
	// notifyMu serialises OnChange calls.
	notifyMu sync.Mutex
}

// NewManager returns a manager for servers; nothing starts before Start. A
// server whose configuration is unusable (no name, a duplicate name, no
// command or URL) is recorded as failed and never started.
func NewManager(servers []ServerConfig, opts Options) *Manager {
	m := &Manager{opts: opts.withDefaults(), byName: make(map[string]*server, len(servers))}
	m.readTool, m.listTool = newReadResourceTool(m), newListResourcesTool(m)
	for _, cfg := range servers {
		s := newServer(m, cfg)
		if s.invalid == nil {
			if _, dup := m.byName[cfg.Name]; dup {
				s.invalid = fmt.Errorf("%w: duplicate server name %q", ErrBadConfig, cfg.Name)
			}
		}
		if s.invalid != nil {
			s.state, s.lastErr = StateFailed, s.invalid.Error()
			s.firstOnce.Do(func() { close(s.firstDone) })
		}
		m.servers = append(m.servers, s)
		if _, dup := m.byName[cfg.Name]; !dup {
			m.byName[cfg.Name] = s
		}
	}
	return m
}

// Start connects every server in the background and returns at once. ctx
// only carries values: the connections live until Close. Calling Start again,
// or after Close, does nothing.
func (m *Manager) Start(ctx context.Context) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.started || m.closed {
		return
	}
	m.started = true
	if m.opts.Roots != nil {
		m.sentRoots = m.opts.Roots()
	}
	ctx, m.cancel = context.WithCancel(context.WithoutCancel(ctx))
	m.runCtx = ctx
	for _, s := range m.servers {
		m.wg.Add(1)
		if s.invalid == nil {
			go s.run(ctx)
			continue
		}
		go func() { // never started: the user hears why, once
			defer m.wg.Done()
			m.stateChanged(StateChange{Server: s.cfg.Name, Kind: GaveUp, Reason: s.invalid.Error()})
		}()
	}
}

// WaitReady waits until every server has finished its first connection
// attempt (ready or failed), at most d, and reports whether they all have.
// The agent calls it before the first prompt with a short d (2 s) so that
// fast servers' tools are there; slow ones join later through OnChange.
func (m *Manager) WaitReady(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	for _, s := range m.servers {
		select {
		case <-s.firstDone:
		case <-timer.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// Close stops every server, killing the process group of each stdio server,
// and returns when no goroutine or process it started is left. It is
// idempotent and always returns nil.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	cancel := m.cancel
	m.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	m.wg.Wait()
	return nil
}

// Status returns every configured server's status, in configuration order.
func (m *Manager) Status() []ServerStatus {
	out := make([]ServerStatus, 0, len(m.servers))
	for _, s := range m.servers {
		out = append(out, s.status())
	}
	return out
}

// Tools returns the tools of every server that listed some (including
// servers now restarting or failed, whose tools answer with an error), and
// mcp_read_resource and list_mcp_resources while a server offers
// resources. Names are unique and stable for a given set of servers and
// tools.
func (m *Manager) Tools() []tools.Tool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]tools.Tool(nil), m.toolset...)
}

// changed rebuilds the tool set and tells the agent.
func (m *Manager) changed() {
	m.rebuild()
	if m.opts.OnChange == nil {
		return
	}
	m.notifyMu.Lock()
	defer m.notifyMu.Unlock()
	m.opts.OnChange()
}

// rebuild recomputes the adapted tools from every server's listing.
func (m *Manager) rebuild() {
	m.mu.Lock()
	defer m.mu.Unlock()
	var entries []toolEntry
	resources := false
	for _, s := range m.servers {
		l := s.listing()
		sorted := slices.SortedFunc(slices.Values(l.tools), func(a, b mcpgo.Tool) int { return strings.Compare(a.Name, b.Name) })
		for _, t := range sorted {
			entries = append(entries, toolEntry{srv: s, tool: t})
		}
		resources = resources || l.resources
	}
	names := assignNames(entries, []string{readResourceName, listResourcesName})
	ts := make([]tools.Tool, 0, len(entries)+2)
	for i, e := range entries {
		ts = append(ts, newMCPTool(e.srv, e.tool, names[i]))
	}
	if resources {
		ts = append(ts, m.readTool, m.listTool)
	}
	m.toolset = ts
}

// server returns the server called name.
func (m *Manager) server(name string) (*server, error) {
	s, ok := m.byName[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownServer, name)
	}
	return s, nil
}
