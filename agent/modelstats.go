package agent

import "companion/agent/model"

// ModelUse is what a session used of one model: requests and tokens.
type ModelUse struct {
	Requests int
	Tokens   model.Usage
}

// ModelTotals returns the session's use per model name so far; front ends
// subtract two of them (see SubModelTotals) to report one prompt's use
// per model, as Gemini CLI's JSON output does.
func (s *Session) ModelTotals() map[string]ModelUse {
	st := s.stats
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make(map[string]ModelUse, len(st.requests))
	for name, n := range st.requests {
		out[name] = ModelUse{Requests: n, Tokens: st.tokens[name]}
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
		out[name] = ModelUse{Requests: a.Requests - b.Requests, Tokens: a.Tokens.Sub(b.Tokens)}
	}
	return out
}
