package agent

import (
	"context"
	"slices"

	"companion/agent/model"
	"companion/tools"
)

// setPlan replaces the session's plan and reports it.
func (s *Session) setPlan(ctx context.Context, entries []tools.PlanEntry) {
	s.mu.Lock()
	s.plan = slices.Clone(entries)
	s.mu.Unlock()
	s.emit(ctx, PlanUpdated{Entries: entries})
}

// reminder returns a note of the open todos when one is due: every
// TodoReminderEvery model requests while todos are open.
func (s *Session) reminder() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests++
	every := s.opts.TodoReminderEvery
	if every < 0 || s.requests%every != 0 {
		return ""
	}
	return tools.TodoReminder(s.plan)
}

// contentText is a user turn of plain text.
func contentText(text string) model.Content {
	return model.Content{Role: model.RoleUser, Parts: []model.Part{{Text: text}}}
}
