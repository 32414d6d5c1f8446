package mcp

import "time"

// ChangeKind says how a server's availability changed.
type ChangeKind string

// Availability changes, each reported once per occurrence.
const (
	// WentDown: the server stopped or failed to start; its tools are
	// gone until it is back, and it is being restarted.
	WentDown ChangeKind = "down"
	// CameBack: the server is up again after going down; its tools are
	// back.
	CameBack ChangeKind = "back"
	// GaveUp: the server failed once more after MaxRestarts restarts
	// within RestartWindow (or could not start at all) and is left
	// failed.
	GaveUp ChangeKind = "gave_up"
)

// StateChange is one change of a server's availability the user should
// hear about: one per change, never one per failed attempt.
type StateChange struct {
	Server string
	Kind   ChangeKind
	// Reason is why the server went down or was given up.
	Reason string
	// Retry is the wait before the next start (WentDown).
	Retry time.Duration
	// Restarts is how many times it was restarted within the window
	// before it was given up (GaveUp).
	Restarts int
}

// stateChanged reports c to OnState, one call at a time.
func (m *Manager) stateChanged(c StateChange) {
	if m.opts.OnState == nil {
		return
	}
	m.notifyMu.Lock()
	defer m.notifyMu.Unlock()
	m.opts.OnState(c)
}

// workspaceTrusted reports whether the session's workspace is trusted now
// (Options.Trusted; trusted when unset).
func (m *Manager) workspaceTrusted() bool {
	return m.opts.Trusted == nil || m.opts.Trusted()
}
