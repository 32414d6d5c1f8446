package agent

import (
	"maps"
	"slices"

	"companion/agent/model"
)

// Stats is a session's figures so far, ready for JSON: what /stats shows
// and what the ACP extension _companion/session/stats answers. Times are
// in milliseconds; ratios are 0..1 (0 when there is nothing to divide).
type Stats struct {
	// Requests counts model requests, failed ones included; Errors the
	// failed ones.
	Requests int `json:"requests"`
	Errors   int `json:"errors"`
	// Tokens sums every model's tokens.
	Tokens TokenStats `json:"tokens"`
	// CacheHitRatio is cached / prompt tokens.
	CacheHitRatio float64 `json:"cacheHitRatio"`
	// ModelTimeMs is the time spent in model requests, ToolTimeMs in
	// tool calls (permission questions included).
	ModelTimeMs int64 `json:"modelTimeMs"`
	ToolTimeMs  int64 `json:"toolTimeMs"`
	// ToolCalls counts finished calls: ToolSuccess + ToolFailed.
	ToolCalls   int `json:"toolCalls"`
	ToolSuccess int `json:"toolSuccess"`
	ToolFailed  int `json:"toolFailed"`
	// SuccessRate is ToolSuccess / ToolCalls.
	SuccessRate float64 `json:"successRate"`
	// Decisions counts who let the calls run or stopped them.
	Decisions Decisions `json:"decisions"`
	// Models and Tools are sorted by name.
	Models []ModelStats `json:"models"`
	Tools  []ToolStats  `json:"tools"`
}

// TokenStats are token counts by type: prompt (input), output
// (candidates), cached (part of prompt), thoughts, and their total.
type TokenStats struct {
	Prompt   int `json:"prompt"`
	Output   int `json:"output"`
	Cached   int `json:"cached"`
	Thoughts int `json:"thoughts"`
	Total    int `json:"total"`
}

// ModelStats is one model's figures.
type ModelStats struct {
	Name          string     `json:"name"`
	Requests      int        `json:"requests"`
	Errors        int        `json:"errors"`
	Tokens        TokenStats `json:"tokens"`
	CacheHitRatio float64    `json:"cacheHitRatio"`
	TimeMs        int64      `json:"timeMs"`
}

// ToolStats is one tool's figures.
type ToolStats struct {
	Name        string  `json:"name"`
	Calls       int     `json:"calls"`
	Success     int     `json:"success"`
	Failed      int     `json:"failed"`
	SuccessRate float64 `json:"successRate"`
	TimeMs      int64   `json:"timeMs"`
}

// Stats returns the session's figures so far.
func (s *Session) Stats() Stats { return StatsOf(s.Totals(), s.ModelTotals()) }

// StatsOf builds the figures from running totals (or the difference of
// two, for one prompt's share).
func StatsOf(t Totals, models map[string]ModelUse) Stats {
	st := Stats{Requests: t.Requests, Errors: t.Errors, Tokens: TokensOf(t.Tokens),
		CacheHitRatio: CacheHitRatio(t.Tokens),
		ModelTimeMs:   t.APITime.Milliseconds(), ToolTimeMs: t.ToolTime.Milliseconds(),
		ToolCalls: t.ToolCalls, ToolFailed: t.FailedCalls, ToolSuccess: t.ToolCalls - t.FailedCalls,
		SuccessRate: ratio(t.ToolCalls-t.FailedCalls, t.ToolCalls), Decisions: t.Decisions,
		Models: []ModelStats{}, Tools: []ToolStats{}}
	for _, name := range slices.Sorted(maps.Keys(models)) {
		m := models[name]
		st.Models = append(st.Models, ModelStats{Name: name, Requests: m.Requests, Errors: m.Errors,
			Tokens: TokensOf(m.Tokens), CacheHitRatio: CacheHitRatio(m.Tokens),
			TimeMs: m.Time.Milliseconds()})
	}
	for _, name := range slices.Sorted(maps.Keys(t.Tools)) {
		c := t.Tools[name]
		st.Tools = append(st.Tools, ToolStats{Name: name, Calls: c.Calls, Success: c.Calls - c.Failed, Failed: c.Failed,
			SuccessRate: ratio(c.Calls-c.Failed, c.Calls), TimeMs: c.Time.Milliseconds()})
	}
	return st
}

// TokensOf is u by type; a total the provider did not report is the sum
// of the parts.
func TokensOf(u model.Usage) TokenStats {
	t := TokenStats{Prompt: u.PromptTokens, Output: u.OutputTokens, Cached: u.CachedTokens,
		Thoughts: u.ThoughtTokens, Total: u.TotalTokens}
	if t.Total == 0 {
		t.Total = t.Prompt + t.Output + t.Thoughts
	}
	return t
}

// CacheHitRatio is the share of prompt tokens served from the cache
// (cached / prompt), rounded to three places; 0 without prompt tokens.
func CacheHitRatio(u model.Usage) float64 { return ratio(u.CachedTokens, u.PromptTokens) }

// ratio is n / d rounded to three places, 0 when d is 0.
func ratio(n, d int) float64 {
	if d <= 0 {
		return 0
	}
	return float64(int(float64(n)/float64(d)*1000+0.5)) / 1000
}
