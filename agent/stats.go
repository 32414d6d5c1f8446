package agent

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"companion/agent/model"
)

// stats counts what a session used: tokens per model, calls per tool. It
// has its own lock.
type stats struct {
	// mu guards the fields below.
	mu       sync.Mutex
	requests map[string]int
	tokens   map[string]model.Usage
	calls    map[string]int
	failed   map[string]int
	// apiTime is the time spent streaming model responses.
	apiTime time.Duration
	// toolTime is the time spent in tool calls, from announcing to result.
	toolTime time.Duration
}

// newStats returns empty counts.
func newStats() *stats {
	return &stats{requests: map[string]int{}, tokens: map[string]model.Usage{},
		calls: map[string]int{}, failed: map[string]int{}}
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
	// ToolTime is the time spent in tool calls (permission questions
	// included).
	ToolTime time.Duration
}

// Totals returns what the session has used so far; front ends subtract
// two of them to report one prompt's use.
func (s *Session) Totals() Totals { return s.stats.totals() }

// totals sums the counts over every model and tool.
func (st *stats) totals() Totals {
	st.mu.Lock()
	defer st.mu.Unlock()
	t := Totals{APITime: st.apiTime, ToolTime: st.toolTime}
	for _, n := range st.requests {
		t.Requests += n
	}
	for _, u := range st.tokens {
		t.Tokens.Add(u)
	}
	for _, n := range st.calls {
		t.ToolCalls += n
	}
	for _, n := range st.failed {
		t.FailedCalls += n
	}
	return t
}

// addUsage records one model response's usage.
func (s *Session) addUsage(modelName string, u *model.Usage, took time.Duration) {
	s.stats.addUsage(modelName, u, took)
}

// addUsage records one model response's usage.
func (st *stats) addUsage(modelName string, u *model.Usage, took time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.requests[modelName]++
	st.apiTime += took
	if u == nil {
		return
	}
	t := st.tokens[modelName]
	t.Add(*u)
	st.tokens[modelName] = t
}

// addCall records one finished tool call and how long it took.
func (s *Session) addCall(tool string, failed bool, took time.Duration) {
	s.stats.addCall(tool, failed, took)
}

// addCall records one finished tool call and how long it took.
func (st *stats) addCall(tool string, failed bool, took time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.calls[tool]++
	st.toolTime += took
	if failed {
		st.failed[tool]++
	}
}

// statsText renders /stats.
func (s *Session) statsText() string { return s.stats.text() }

// text renders the counts as markdown tables.
func (st *stats) text() string {
	st.mu.Lock()
	defer st.mu.Unlock()
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
func (s *Session) ContextUse() (used, size int) { return s.hist.use() }
