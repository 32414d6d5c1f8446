package agent

import (
	"time"

	"companion/agent/model"
)

// ModelUse is what a session used of one model: requests (failed ones
// included), failed requests, tokens and the time spent in requests.
type ModelUse struct {
	Requests int
	Errors   int
	Tokens   model.Usage
	Time     time.Duration
}

// ModelTotals returns the session's use per model name so far; front ends
// subtract two of them (see SubModelTotals) to report one prompt's use
// per model, as Gemini CLI's JSON output does.
func (s *Session) ModelTotals() map[string]ModelUse {
	st := s.stats
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make(map[string]ModelUse, len(st.models))
	for name, m := range st.models {
		out[name] = m
	}
	return out
}

// SubModelTotals is after minus before, per model; models with no request
// in between are left out.
func SubModelTotals(after, before map[string]ModelUse) map[string]ModelUse {
	out := map[string]ModelUse{}
	for name, a := range after {
		b := before[name]
		if a.Requests == b.Requests {
			continue
		}
		out[name] = ModelUse{Requests: a.Requests - b.Requests, Errors: a.Errors - b.Errors,
			Tokens: a.Tokens.Sub(b.Tokens), Time: a.Time - b.Time}
	}
	return out
}

// SubToolTotals is after minus before, per tool; tools with no call in
// between are left out.
func SubToolTotals(after, before map[string]ToolUse) map[string]ToolUse {
	out := map[string]ToolUse{}
	for name, a := range after {
		b := before[name]
		if a.Calls == b.Calls {
			continue
		}
		out[name] = ToolUse{Calls: a.Calls - b.Calls, Failed: a.Failed - b.Failed, Time: a.Time - b.Time}
	}
	return out
}
