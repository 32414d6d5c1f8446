package agent

import (
	"maps"
	"sync"
	"time"

	"companion/agent/model"
	"companion/tools"
	"companion/tools/policy"
)

// stats counts what a session used: requests, errors, tokens and time per
// model; calls, failures and time per tool; who decided each call. It has
// its own lock.
type stats struct {
	// mu guards the fields below.
	mu     sync.Mutex
	models map[string]ModelUse
	tools  map[string]ToolUse
	// decisions counts who let each call run, or refused it.
	decisions Decisions
	// apiTime is the time spent streaming model responses.
	apiTime time.Duration
	// toolTime is the time spent in tool calls, from announcing to result.
	toolTime time.Duration
}

// newStats returns empty counts.
func newStats() *stats {
	return &stats{models: map[string]ModelUse{}, tools: map[string]ToolUse{}}
}

// ToolUse is what a session did with one tool: finished calls, how many
// of them failed, and the time they took.
type ToolUse struct {
	Calls, Failed int
	Time          time.Duration
}

// Decisions counts who let the session's tool calls run, or stopped them.
// Every call that reached the permission step counts once.
type Decisions struct {
	// Policy counts calls the policy allowed: calls that need no
	// approval, and calls an allow rule (or an earlier "always") covers.
	Policy int `json:"policy"`
	// Mode counts calls the approval mode allowed (auto_edit, yolo).
	Mode int `json:"mode"`
	// Hook counts calls a BeforeTool hook approved.
	Hook int `json:"hook"`
	// User counts calls the user approved.
	User int `json:"user"`
	// Rejected counts calls the user rejected or cancelled.
	Rejected int `json:"rejected"`
	// Denied counts calls the policy refused (deny rules, plan mode, no
	// way to ask).
	Denied int `json:"denied"`
	// Blocked counts calls a BeforeTool hook refused.
	Blocked int `json:"blocked"`
}

// Who decided a call, for (*Session).decided.
const (
	decidedPolicy = "policy"
	decidedMode   = "mode"
	decidedHook   = "hook"
	decidedUser   = "user"
	decidedReject = "rejected"
	decidedDeny   = "denied"
	decidedBlock  = "blocked"
)

// add counts one decision.
func (d *Decisions) add(who string) {
	switch who {
	case decidedPolicy:
		d.Policy++
	case decidedMode:
		d.Mode++
	case decidedHook:
		d.Hook++
	case decidedUser:
		d.User++
	case decidedReject:
		d.Rejected++
	case decidedDeny:
		d.Denied++
	case decidedBlock:
		d.Blocked++
	}
}

// Sub returns d minus o: the decisions between two running totals.
func (d Decisions) Sub(o Decisions) Decisions {
	return Decisions{Policy: d.Policy - o.Policy, Mode: d.Mode - o.Mode, Hook: d.Hook - o.Hook, User: d.User - o.User,
		Rejected: d.Rejected - o.Rejected, Denied: d.Denied - o.Denied, Blocked: d.Blocked - o.Blocked}
}

// Allowed is how many calls were let run, by anyone.
func (d Decisions) Allowed() int { return d.Policy + d.Mode + d.Hook + d.User }

// Totals is what a session has used so far, over every model.
type Totals struct {
	// Requests counts model requests; Errors those that failed.
	Requests, Errors int
	// Tokens sums the usage the models reported.
	Tokens model.Usage
	// ToolCalls counts finished tool calls; FailedCalls those that failed.
	ToolCalls, FailedCalls int
	// APITime is the time spent waiting for and streaming model answers.
	APITime time.Duration
	// ToolTime is the time spent in tool calls (permission questions
	// included).
	ToolTime time.Duration
	// Tools is the use per tool name.
	Tools map[string]ToolUse
	// Decisions counts who let the calls run or stopped them.
	Decisions Decisions
}

// Totals returns what the session has used so far; front ends subtract
// two of them to report one prompt's use.
func (s *Session) Totals() Totals { return s.stats.totals() }

// totals sums the counts over every model and tool.
func (st *stats) totals() Totals {
	st.mu.Lock()
	defer st.mu.Unlock()
	t := Totals{APITime: st.apiTime, ToolTime: st.toolTime, Tools: maps.Clone(st.tools), Decisions: st.decisions}
	for _, m := range st.models {
		t.Requests += m.Requests
		t.Errors += m.Errors
		t.Tokens.Add(m.Tokens)
	}
	for _, c := range st.tools {
		t.ToolCalls += c.Calls
		t.FailedCalls += c.Failed
	}
	return t
}

// addUsage records one model response's usage.
func (s *Session) addUsage(modelName string, u *model.Usage, took time.Duration) {
	s.stats.addRequest(modelName, u, false, took)
}

// addModelError records a model request that failed.
func (s *Session) addModelError(modelName string, took time.Duration) {
	s.stats.addRequest(modelName, nil, true, took)
}

// addRequest records one model request: its usage (nil when unknown),
// whether it failed, and how long it took.
func (st *stats) addRequest(modelName string, u *model.Usage, failed bool, took time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	m := st.models[modelName]
	m.Requests++
	m.Time += took
	if failed {
		m.Errors++
	}
	if u != nil {
		v := *u
		if v.TotalTokens == 0 { // not reported: the sum of the parts
			v.TotalTokens = v.PromptTokens + v.OutputTokens + v.ThoughtTokens
		}
		m.Tokens.Add(v)
	}
	st.models[modelName] = m
	st.apiTime += took
}

// addCall records one finished tool call and how long it took.
func (s *Session) addCall(tool string, failed bool, took time.Duration) {
	s.stats.addCall(tool, failed, took)
}

// addCall records one finished tool call and how long it took.
func (st *stats) addCall(tool string, failed bool, took time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.tools[tool]
	c.Calls++
	c.Time += took
	if failed {
		c.Failed++
	}
	st.tools[tool] = c
	st.toolTime += took
}

// decided records who let a call run or stopped it (decided* names).
func (s *Session) decided(who string) {
	st := s.stats
	st.mu.Lock()
	defer st.mu.Unlock()
	st.decisions.add(who)
}

// ContextUse is how many tokens of the context window the last model
// request used, and the window's size (0, 0 before any request).
func (s *Session) ContextUse() (used, size int) { return s.eng.hist.use() }

// allowedBy names who let a call the policy allowed run: a hook when the
// policy would have asked, the mode when it approves the call's kind of
// change, else the policy itself (no approval needed, or a rule).
func (s *Session) allowedBy(q Question, policyAsked bool) string {
	switch {
	case policyAsked:
		return decidedHook
	case q.Confirm == nil:
		return decidedPolicy
	}
	switch s.Mode() {
	case policy.ModeYolo:
		return decidedMode
	case policy.ModeAutoEdit:
		if q.Confirm.Type == tools.ConfirmEdit {
			return decidedMode
		}
	}
	return decidedPolicy
}
