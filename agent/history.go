package agent

import (
	"fmt"
	"slices"
	"sync"

	"companion/agent/model"
)

// history is the conversation as the model sees it, and the context use
// the model last reported. Every change is written to the journal before
// it is made, so Restore can replay it (see apply). It has its own lock;
// nothing else is held while it is taken.
type history struct {
	journal *journalWriter

	// mu guards the fields below.
	mu       sync.Mutex
	contents []model.Content
	// used and window are the context use the model last reported: tokens
	// of the last request and the window's size.
	used, window int
	// compactions numbers the compressions, for their event ids.
	compactions int
}

// add appends c and returns the length before it, so a caller can later
// cut back to that point.
func (h *history) add(c model.Content) int {
	h.journal.write(recHistory, historyRecord{Op: "append", Content: &c})
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(h.contents)
	h.contents = append(h.contents, c)
	return n
}

// truncate drops everything from index n on.
func (h *history) truncate(n int) {
	h.journal.write(recHistory, historyRecord{Op: "truncate", N: n})
	h.mu.Lock()
	defer h.mu.Unlock()
	if n < len(h.contents) {
		h.contents = h.contents[:n]
	}
}

// clear forgets the conversation.
func (h *history) clear() {
	h.journal.write(recHistory, historyRecord{Op: "clear"})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.contents = nil
}

// replace installs a compressed history, head then kept, and forgets the
// context use (the next request measures it again).
func (h *history) replace(head, kept []model.Content) {
	all := append(slices.Clip(head), kept...)
	h.journal.write(recHistory, historyRecord{Op: "replace", Contents: all})
	h.mu.Lock()
	defer h.mu.Unlock()
	h.contents, h.used = all, 0
}

// apply replays one journalled change (Restore); it writes nothing.
func (h *history) apply(r historyRecord) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch r.Op {
	case "append":
		if r.Content != nil {
			h.contents = append(h.contents, *r.Content)
		}
	case "truncate":
		if r.N < len(h.contents) {
			h.contents = h.contents[:r.N]
		}
	case "clear":
		h.contents = nil
	case "replace":
		h.contents = r.Contents
	}
}

// curated returns the history as the model must see it: empty turns
// dropped, every function call answered, consecutive turns of one role
// merged.
func (h *history) curated() []model.Content {
	h.mu.Lock()
	defer h.mu.Unlock()
	return curate(h.contents)
}

// setUse records the context use the model reported.
func (h *history) setUse(used, window int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.used, h.window = used, window
}

// use is the context use the model last reported (0, 0 before any).
func (h *history) use() (used, window int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.used, h.window
}

// full reports whether the last request used at least the share at of
// the context window; never when at <= 0 or before any request.
func (h *history) full(at float64) bool {
	used, window := h.use()
	return at > 0 && window > 0 && float64(used) >= at*float64(window)
}

// nextCompactionID numbers a compression.
func (h *history) nextCompactionID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.compactions++
	return fmt.Sprintf("compaction_%d", h.compactions)
}

// appendHistory adds c to the history and returns the length before it.
func (s *engine) appendHistory(c model.Content) int { return s.hist.add(c) }

// appendModelTurn records what the model said, dropping a turn with nothing
// usable in it (an empty or interrupted stream).
func (s *engine) appendModelTurn(parts []model.Part) {
	parts = slices.DeleteFunc(slices.Clone(parts), emptyPart)
	if len(parts) == 0 {
		return
	}
	compactCalls(parts)
	s.hist.add(model.Content{Role: model.RoleModel, Parts: parts})
}

// clearHistory forgets the conversation; the editor context is sent whole
// with the next prompt.
func (s *engine) clearHistory() {
	s.hist.clear()
	s.ide.MarkStale()
}

// curated is the history as the next request sends it.
func (s *engine) curated() []model.Content { return s.hist.curated() }

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
