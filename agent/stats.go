package agent

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"companion/agent/model"
)

// stats counts what a session used: tokens per model, calls per tool.
type stats struct {
	requests map[string]int
	tokens   map[string]model.Usage
	calls    map[string]int
	failed   map[string]int
}

// addUsage records one model response's usage.
func (s *Session) addUsage(modelName string, u *model.Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.statsLocked()
	st.requests[modelName]++
	if u == nil {
		return
	}
	t := st.tokens[modelName]
	t.PromptTokens += u.PromptTokens
	t.OutputTokens += u.OutputTokens
	t.ThoughtTokens += u.ThoughtTokens
	t.CachedTokens += u.CachedTokens
	t.TotalTokens += u.TotalTokens
	st.tokens[modelName] = t
}

// addCall records one finished tool call.
func (s *Session) addCall(tool string, failed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.statsLocked()
	st.calls[tool]++
	if failed {
		st.failed[tool]++
	}
}

func (s *Session) statsLocked() *stats {
	if s.stats == nil {
		s.stats = &stats{requests: map[string]int{}, tokens: map[string]model.Usage{},
			calls: map[string]int{}, failed: map[string]int{}}
	}
	return s.stats
}

// statsText renders /stats.
func (s *Session) statsText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.statsLocked()
	var b strings.Builder
	b.WriteString("| model | requests | input tokens | output tokens | thought tokens | cached |\n|---|---:|---:|---:|---:|---:|\n")
	for _, m := range slices.Sorted(maps.Keys(st.requests)) {
		t := st.tokens[m]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", m, st.requests[m], t.PromptTokens, t.OutputTokens, t.ThoughtTokens, t.CachedTokens)
	}
	if len(st.calls) == 0 {
		b.WriteString("\nNo tool calls yet.\n")
		return b.String()
	}
	b.WriteString("\n| tool | calls | failed |\n|---|---:|---:|\n")
	for _, name := range slices.Sorted(maps.Keys(st.calls)) {
		fmt.Fprintf(&b, "| %s | %d | %d |\n", name, st.calls[name], st.failed[name])
	}
	return b.String()
}
