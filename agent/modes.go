package agent

import (
	"context"
	"fmt"
	"slices"

	"companion/tools/policy"
)

// Mode is an approval mode: how freely the agent may act without asking.
type Mode struct {
	ID          string
	Name        string
	Description string
}

// Approval mode ids.
const (
	ModeDefault  = "default"
	ModeAutoEdit = "auto_edit"
	ModeYolo     = "yolo"
	ModePlan     = "plan"
)

// Modes lists the approval modes in the order editors should show them.
func Modes() []Mode {
	return []Mode{
		{ModeDefault, "Default", "Ask before editing files or running commands."},
		{ModeAutoEdit, "Auto edit", "Edit files without asking; ask before running commands."},
		{ModeYolo, "YOLO", "Run every tool without asking."},
		{ModePlan, "Plan", "Read and plan only: no edits, no commands."},
	}
}

func validMode(id string) bool {
	for _, m := range Modes() {
		if m.ID == id {
			return true
		}
	}
	return false
}

// checkMode says why the session cannot switch to mode id: it does not
// exist (ErrUnknownMode), or it approves calls without asking in a
// workspace that is not trusted (ErrUntrusted).
func (s *Session) checkMode(id string) error {
	if !validMode(id) {
		return fmt.Errorf("%w %q", ErrUnknownMode, id)
	}
	if policy.Unsafe(id) && !s.policy.Trusted() {
		return fmt.Errorf("mode %q is unavailable: %w; trust it first (companion trust, or the editor's own trust)", id, ErrUntrusted)
	}
	return nil
}

// AvailableModes lists the modes the session may switch to now: all of
// Modes in a trusted workspace, those that ask before every edit and
// command in an untrusted one.
func (s *Session) AvailableModes() []Mode {
	all := Modes()
	if s.policy.Trusted() {
		return all
	}
	return slices.DeleteFunc(all, func(m Mode) bool { return policy.Unsafe(m.ID) })
}

// Trusted reports whether the session's workspace is trusted.
func (s *Session) Trusted() bool { return s.policy.Trusted() }

// SetTrusted changes whether the session's workspace is trusted. Losing
// trust drops yolo and auto_edit to default. A change of trust is
// announced as a ModeChanged with the current mode, so that front ends
// show the modes now available; notice, when not empty, is told to the
// user as a warning.
func (s *Session) SetTrusted(ctx context.Context, trusted bool, notice string) {
	was := s.policy.Trusted()
	dropped := s.policy.SetTrusted(trusted)
	if dropped {
		s.journal(recSettings, settingsRecord{Mode: ModeDefault})
	}
	if dropped || was != trusted {
		s.emit(ctx, ModeChanged{ID: s.Mode()})
	}
	if notice != "" {
		s.emit(ctx, Notice{Level: "warning", Text: notice})
	}
}
