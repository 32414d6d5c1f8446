package agent

import (
	"testing"
	"time"

	"companion/agent/model"
)

// TestModelTotals: use per model, and a prompt's share of it (models
// without a request in between left out).
func TestModelTotals(t *testing.T) {
	s := &Session{stats: newStats()}
	s.addUsage("m1", &model.Usage{PromptTokens: 10, OutputTokens: 2}, time.Millisecond)
	before := s.ModelTotals()
	s.addUsage("m1", &model.Usage{PromptTokens: 30, OutputTokens: 4, CachedTokens: 5}, time.Millisecond)
	s.addUsage("m2", &model.Usage{PromptTokens: 7, ThoughtTokens: 1}, time.Millisecond)
	s.addUsage("m3", nil, time.Millisecond)
	after := s.ModelTotals()
	if after["m1"].Requests != 2 || after["m1"].Tokens.PromptTokens != 40 {
		t.Errorf("after = %+v", after)
	}
	got := SubModelTotals(after, before)
	if len(got) != 3 || got["m1"].Requests != 1 || got["m1"].Tokens.PromptTokens != 30 || got["m1"].Tokens.CachedTokens != 5 ||
		got["m2"].Tokens.ThoughtTokens != 1 || got["m3"].Requests != 1 {
		t.Errorf("SubModelTotals = %+v", got)
	}
	if got := SubModelTotals(after, after); len(got) != 0 {
		t.Errorf("no requests in between: %+v", got)
	}
}
