package mcp

import (
	"errors"
	"fmt"
	"sync"

	"companion/tools/procgroup"
)

// ErrGateClosed is a stdio server start refused because its Gate is
// closed.
var ErrGateClosed = errors.New("MCP server may not run now")

// Gate lets a set of stdio servers run only while it is open. The host
// gives one to a session's project servers: when the workspace loses
// trust it closes the gate, which kills their processes at once and
// refuses to start them again (the manager's restarts fail with the
// reason) until it opens. A Gate is safe for concurrent use; the zero
// value is not usable, call NewGate.
type Gate struct {
	// mu guards the fields below, and is held across a start so that a
	// process never starts after Close returned.
	mu sync.Mutex
	// why is the reason starts are refused; "" while open.
	why string
	// live are the process groups started through the gate and not yet
	// reaped.
	live map[int]struct{}
}

// NewGate returns an open gate.
func NewGate() *Gate { return &Gate{live: map[int]struct{}{}} }

// Close kills every process started through the gate and refuses starts,
// saying why, until Open.
func (g *Gate) Close(why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if why == "" {
		why = "closed"
	}
	g.why = why
	for pid := range g.live {
		_ = procgroup.Kill(pid)
	}
}

// Open lets servers start again.
func (g *Gate) Open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.why = ""
}

// Closed reports whether the gate refuses starts.
func (g *Gate) Closed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.why != ""
}

// admit runs start (which starts a process and returns its pid) unless
// the gate is closed, and tracks the process until forget.
func (g *Gate) admit(start func() (int, error)) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.why != "" {
		return fmt.Errorf("%w: %s", ErrGateClosed, g.why)
	}
	pid, err := start()
	if err == nil {
		g.live[pid] = struct{}{}
	}
	return err
}

// forget stops tracking a reaped process.
func (g *Gate) forget(pid int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.live, pid)
}
