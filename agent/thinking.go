package agent

import (
	"fmt"

	"companion/agent/model"
)

// ThoughtLevel is a named thinking budget the user can pick.
type ThoughtLevel struct {
	ID, Name string
	// Budget is the token budget; nil means the model decides.
	Budget *int
}

// ThoughtLevels lists the levels offered for models that take a budget.
func ThoughtLevels() []ThoughtLevel {
	budget := func(n int) *int { return &n }
	return []ThoughtLevel{
		{"auto", "Auto", nil},
		{"low", "Low", budget(1024)},
		{"medium", "Medium", budget(8192)},
		{"high", "High", budget(24576)},
	}
}

// ThinkingConfigurable reports whether the current model takes a thinking
// budget.
func (s *Session) ThinkingConfigurable() bool {
	t, ok := s.opts.Model.(model.Thinker)
	return ok && t.ThinkingBudgets(s.ModelName())
}

// ThoughtLevel is the current level's id.
func (s *Session) ThoughtLevel() string {
	if id := s.thoughtLevel.get(); id != "" {
		return id
	}
	return "auto"
}

// SetThoughtLevel picks a level for the next requests.
func (s *Session) SetThoughtLevel(id string) error {
	for _, l := range ThoughtLevels() {
		if l.ID == id {
			s.thoughtLevel.set(id)
			return nil
		}
	}
	return fmt.Errorf("unknown thought level %q", id)
}

// thinkingBudget is the budget for the next request, or nil.
func (s *Session) thinkingBudget() *int {
	id := s.ThoughtLevel()
	for _, l := range ThoughtLevels() {
		if l.ID == id {
			return l.Budget
		}
	}
	return nil
}
