package agent

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"companion/agent/model"
)

// stats counts what a session used: tokens per model, calls per tool.
type stats struct {
	requests map[string]int
	tokens   map[string]model.Usage
	calls    map[string]int
	failed   map[string]int
	// apiTime is the time spent streaming model responses.
	apiTime time.Duration
}

// Totals is what a session has used so far, over every model.
type Totals struct {
	// Requests counts model requests.
	Requests int
	// Tokens sums the usage the models reported.
	Tokens model.Usage
	// ToolCalls counts finished tool calls; FailedCalls those that failed.
	ToolCalls, FailedCalls int
	// APITime is the time spent waiting for and streaming model answers.
	APITime time.Duration
}

// Totals returns what the session has used so far; front ends subtract
// two of them to report one prompt's use.
func (s *Session) Totals() Totals {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t Totals
	if s.stats == nil {
		return t
	}
	t.APITime = s.stats.apiTime
	for _, n := range s.stats.requests {
		t.Requests += n
	}
	for _, u := range s.stats.tokens {
		t.Tokens.Add(u)
	}
	for _, n := range s.stats.calls {
		t.ToolCalls += n
	}
	for _, n := range s.stats.failed {
		t.FailedCalls += n
	}
	return t
}

// addUsage records one model response's usage.
func (s *Session) addUsage(modelName string, u *model.Usage, took time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.statsLocked()
	st.requests[modelName]++
	st.apiTime += took
	if u == nil {
		return
	}
	t := st.tokens[modelName]
	t.Add(*u)
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

// ContextUse is how many tokens of the context window the last model
// request used, and the window's size (0, 0 before any request).
func (s *Session) ContextUse() (used, size int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastUsed, s.lastWindow
}
