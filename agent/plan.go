package agent

import (
	"context"
	"slices"
	"sync"

	"companion/agent/model"
	"companion/tools"
	"companion/tools/builtin"
)

// todos is the plan the model keeps (write_todos) and the count of model
// requests that paces reminders of it. It has its own lock.
type todos struct {
	// every is Options.TodoReminderEvery; negative never reminds.
	every int

	// mu guards the fields below.
	mu       sync.Mutex
	plan     []tools.PlanEntry
	requests int
}

// set replaces the plan.
func (t *todos) set(entries []tools.PlanEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.plan = slices.Clone(entries)
}

// reminder counts a model request and returns a note of the open todos
// when one is due: every t.every requests while todos are open.
func (t *todos) reminder() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.requests++
	if t.every < 0 || t.requests%t.every != 0 {
		return ""
	}
	return builtin.TodoReminder(t.plan)
}

// setPlan replaces the session's plan and reports it.
func (s *Session) setPlan(ctx context.Context, entries []tools.PlanEntry) {
	s.todos.set(entries)
	s.emit(ctx, PlanUpdated{Entries: entries})
}

// reminder returns a note of the open todos when one is due.
func (s *Session) reminder() string { return s.todos.reminder() }

// contentText is a user turn of plain text.
func contentText(text string) model.Content {
	return model.Content{Role: model.RoleUser, Parts: []model.Part{{Text: text}}}
}
