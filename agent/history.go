package agent

import (
	"slices"

	"companion/agent/model"
)

// appendHistory adds c and returns the history length before it, so a
// caller can later cut back to that point.
func (s *Session) appendHistory(c model.Content) int {
	s.journal(recHistory, historyRecord{Op: "append", Content: &c})
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.history)
	s.history = append(s.history, c)
	return n
}

// appendModelTurn records what the model said, dropping a turn with nothing
// usable in it (an empty or interrupted stream).
func (s *Session) appendModelTurn(parts []model.Part) {
	parts = slices.DeleteFunc(slices.Clone(parts), emptyPart)
	if len(parts) == 0 {
		return
	}
	s.appendHistory(model.Content{Role: model.RoleModel, Parts: parts})
}

// truncateHistory drops everything from index n on.
func (s *Session) truncateHistory(n int) {
	s.journal(recHistory, historyRecord{Op: "truncate", N: n})
	s.mu.Lock()
	defer s.mu.Unlock()
	if n < len(s.history) {
		s.history = s.history[:n]
	}
}

// clearHistory forgets the conversation.
func (s *Session) clearHistory() {
	s.journal(recHistory, historyRecord{Op: "clear"})
	s.ide.MarkStale()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = nil
}

// curated returns the history as the model must see it: empty turns
// dropped, every function call answered, consecutive turns of one role
// merged.
func (s *Session) curated() []model.Content {
	s.mu.Lock()
	defer s.mu.Unlock()
	return curate(s.history)
}

func curate(history []model.Content) []model.Content {
	out := make([]model.Content, 0, len(history))
	for _, c := range history {
		parts := slices.DeleteFunc(slices.Clone(c.Parts), emptyPart)
		if len(parts) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == c.Role {
			out[n-1].Parts = append(out[n-1].Parts, parts...)
			continue
		}
		out = append(out, model.Content{Role: c.Role, Parts: parts})
	}
	return answerDanglingCalls(out)
}

// answerDanglingCalls adds an "interrupted" response for every function
// call that has none, so the model never sees a call without its answer.
func answerDanglingCalls(cs []model.Content) []model.Content {
	for i, c := range cs {
		if c.Role != model.RoleModel {
			continue
		}
		var answered map[string]bool
		if i+1 < len(cs) {
			answered = responseIDs(cs[i+1])
		}
		var missing []model.Part
		for _, p := range c.Parts {
			if fc := p.FunctionCall; fc != nil && !answered[callKey(fc.ID, fc.Name)] {
				missing = append(missing, functionResponse(fc, nil, "The tool call was interrupted before it ran."))
			}
		}
		if len(missing) == 0 {
			continue
		}
		if i+1 < len(cs) && cs[i+1].Role == model.RoleUser {
			cs[i+1].Parts = append(missing, cs[i+1].Parts...)
			continue
		}
		cs = slices.Insert(cs, i+1, model.Content{Role: model.RoleUser, Parts: missing})
	}
	return cs
}

func responseIDs(c model.Content) map[string]bool {
	ids := map[string]bool{}
	for _, p := range c.Parts {
		if fr := p.FunctionResponse; fr != nil {
			ids[callKey(fr.ID, fr.Name)] = true
		}
	}
	return ids
}

func callKey(id, name string) string { return id + "\x00" + name }

func emptyPart(p model.Part) bool {
	return p.Text == "" && len(p.ThoughtSignature) == 0 && p.InlineData == nil &&
		p.FunctionCall == nil && p.FunctionResponse == nil
}
