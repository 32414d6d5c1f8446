package mcp

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// State is where a server is in its life.
type State string

// Server states.
const (
	// StateConnecting: the first connection attempt is under way.
	StateConnecting State = "connecting"
	// StateReady: connected; its tools work.
	StateReady State = "ready"
	// StateRestarting: it failed and will be started again after a backoff.
	StateRestarting State = "restarting"
	// StateFailed: it failed and will not be started again (bad
	// configuration, or too many failures in a row).
	StateFailed State = "failed"
)

// ServerStatus is what /mcp shows about one server.
type ServerStatus struct {
	Name      string
	Transport Transport
	State     State
	// Tools are the names (as the server gives them) of the tools offered
	// after IncludeTools and ExcludeTools.
	Tools []string
	// Prompts are the names of the server's prompts.
	Prompts []string
	// LastError is why the server last failed, "" if it never did.
	LastError string
	// Restarts counts the times the server was started again.
	Restarts int
	// PID is the process id of a running stdio server, 0 otherwise.
	PID int
}

// server is one configured server and its supervisor's state.
type server struct {
	cfg ServerConfig
	m   *Manager
	// invalid is why the configuration is unusable; such a server never
	// starts.
	invalid error
	// firstDone is closed once the first connection attempt has ended.
	firstDone chan struct{}
	firstOnce sync.Once

	// mu guards the fields below.
	mu       sync.Mutex
	state    State
	conn     *conn
	list     listing
	lastErr  string
	restarts int
	// down is set from a failure until the server is ready again: the
	// user is told once when it goes down and once when it is back.
	down bool
}

// newServer returns the server of cfg, not started.
func newServer(m *Manager, cfg ServerConfig) *server {
	return &server{cfg: cfg, m: m, invalid: cfg.validate(), firstDone: make(chan struct{}), state: StateConnecting}
}

// run is the server's supervisor: it connects, serves until the connection
// dies, and restarts with backoff until it has been restarted MaxRestarts
// times within RestartWindow or ctx ends. It closes every connection it
// opened before returning.
func (s *server) run(ctx context.Context) {
	defer s.m.wg.Done()
	defer s.firstOnce.Do(func() { close(s.firstDone) })
	o := &s.m.opts
	var restarts []time.Time // when the server was restarted, within the window
	for {
		c, l, err := s.connect(ctx)
		if err == nil {
			s.setReady(c, l)
			err = s.serve(ctx, c)
			s.setDown(ctx, err)
			c.close(o.StopGrace)
		}
		if ctx.Err() != nil {
			return
		}
		restarts = recent(restarts, o.Now(), o.RestartWindow)
		if !s.retry(ctx, err, len(restarts)) {
			return
		}
		restarts = append(restarts, o.Now())
	}
}

// recent keeps the times of ts within window before now.
func recent(ts []time.Time, now time.Time, window time.Duration) []time.Time {
	return slices.DeleteFunc(ts, func(t time.Time) bool { return now.Sub(t) >= window })
}

// connect dials the server and lists what it offers.
func (s *server) connect(ctx context.Context) (*conn, listing, error) {
	o := &s.m.opts
	c, err := dialAuthorized(ctx, &s.cfg, o)
	if err != nil {
		return nil, listing{}, err
	}
	l, err := c.list(ctx, o.ConnectTimeout)
	if err != nil {
		c.close(o.StopGrace)
		return nil, listing{}, err
	}
	return c, l, nil
}

// serve waits for c to die or ctx to end, listing the tools and prompts
// again whenever the server says they changed.
func (s *server) serve(ctx context.Context, c *conn) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.done:
			return c.failErr
		case <-c.refresh:
			l, err := c.list(ctx, s.m.opts.ConnectTimeout)
			if err != nil {
				s.m.opts.Log.Warn("mcp: listing after a change failed", "server", s.cfg.Name, "err", err)
				continue
			}
			s.mu.Lock()
			s.list = s.filter(l)
			s.mu.Unlock()
			s.m.changed()
		}
	}
}

// retry records the failure err and, unless the server was already
// restarted MaxRestarts times within the window (n), waits the backoff and
// reports true to start it again. The user hears of the first failure
// since the server was last up, and of giving up; not of every attempt.
func (s *server) retry(ctx context.Context, err error, n int) bool {
	o := &s.m.opts
	o.Log.Warn("mcp: server failed", "server", s.cfg.Name, "err", err, "restarts", n)
	giveUp := o.MaxRestarts < 0 || n >= o.MaxRestarts
	wait := backoff(o.Backoff, o.MaxBackoff, n+1)
	s.mu.Lock()
	wasDown := s.down
	s.lastErr, s.state, s.down = err.Error(), StateRestarting, true
	if giveUp {
		s.state = StateFailed
	}
	s.mu.Unlock()
	switch {
	case giveUp:
		s.m.stateChanged(StateChange{Server: s.cfg.Name, Kind: GaveUp, Reason: err.Error(), Restarts: n})
	case !wasDown:
		s.m.stateChanged(StateChange{Server: s.cfg.Name, Kind: WentDown, Reason: err.Error(), Retry: wait})
	}
	s.m.changed()
	s.firstOnce.Do(func() { close(s.firstDone) })
	if giveUp {
		return false
	}
	select {
	case <-ctx.Done():
		return false
	case <-o.After(wait):
	}
	s.mu.Lock()
	s.restarts++
	s.mu.Unlock()
	return true
}

// backoff is the wait before restart number n (1-based): base doubled n-1
// times, at most limit.
func backoff(base, limit time.Duration, n int) time.Duration {
	d := base
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}

// setReady records a live connection and what it offers; a server that
// was down is back.
func (s *server) setReady(c *conn, l listing) {
	s.mu.Lock()
	back := s.down
	s.state, s.conn, s.list, s.down = StateReady, c, s.filter(l), false
	s.mu.Unlock()
	if back {
		s.m.stateChanged(StateChange{Server: s.cfg.Name, Kind: CameBack})
	}
	s.m.changed()
	s.firstOnce.Do(func() { close(s.firstDone) })
}

// setDown forgets the connection, which died of err (or is being closed
// with the manager), so that calls stop using it and say why. retry then
// decides whether the server restarts.
func (s *server) setDown(ctx context.Context, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conn = nil
	if ctx.Err() != nil {
		s.state, s.lastErr = StateFailed, "the session closed"
		return
	}
	s.state, s.lastErr = StateRestarting, err.Error()
}

// filter applies IncludeTools and ExcludeTools.
func (s *server) filter(l listing) listing {
	l.tools = slices.DeleteFunc(slices.Clone(l.tools), func(t mcpgo.Tool) bool { return !s.cfg.keepTool(t.Name) })
	return l
}

// listing returns what the server offers now: what it last listed while
// it is ready, nothing while it is down (its tools and prompts come back
// with it).
func (s *server) listing() listing {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateReady {
		return listing{}
	}
	return s.list
}

// live returns the connection when the server is ready, or an error saying
// what state it is in, for the model or the user.
func (s *server) live() (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StateReady && s.conn != nil {
		return s.conn, nil
	}
	switch s.state {
	case StateConnecting:
		return nil, fmt.Errorf("%w: %q is still starting; try again shortly", ErrNotReady, s.cfg.Name)
	case StateRestarting:
		return nil, fmt.Errorf("%w: %q failed and is being restarted (last error: %s); try again shortly",
			ErrNotReady, s.cfg.Name, s.lastErr)
	default:
		return nil, fmt.Errorf("%w: %q failed and will not be restarted: %s", ErrNotReady, s.cfg.Name, s.lastErr)
	}
}

// status is the server's ServerStatus.
func (s *server) status() ServerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := ServerStatus{
		Name: s.cfg.Name, Transport: s.cfg.transport(), State: s.state,
		LastError: s.lastErr, Restarts: s.restarts, PID: s.conn.pid(),
	}
	for _, t := range s.list.tools {
		st.Tools = append(st.Tools, t.Name)
	}
	for _, p := range s.list.prompts {
		st.Prompts = append(st.Prompts, p.Name)
	}
	return st
}
