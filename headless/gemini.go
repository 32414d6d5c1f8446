package headless

import (
	"errors"

	"companion/agent"
	"companion/agent/model"
)

// geminiStats is the json output's "stats", in the shape Gemini CLI
// writes and its users script against (PROTOCOL.md shows both shapes).
type geminiStats struct {
	Models map[string]geminiModel `json:"models"`
	Tools  geminiTools            `json:"tools"`
}

// geminiModel is one model's use during the prompt.
type geminiModel struct {
	API    geminiAPI    `json:"api"`
	Tokens geminiTokens `json:"tokens"`
}

// geminiAPI counts a model's requests, the failed ones, and the time
// they took.
type geminiAPI struct {
	TotalRequests  int   `json:"totalRequests"`
	TotalErrors    int   `json:"totalErrors"`
	TotalLatencyMS int64 `json:"totalLatencyMs"`
}

// geminiTokens are a model's token counts: prompt (input), candidates
// (output), cached (part of prompt), thoughts, and their total.
type geminiTokens struct {
	Prompt     int `json:"prompt"`
	Candidates int `json:"candidates"`
	Total      int `json:"total"`
	Cached     int `json:"cached"`
	Thoughts   int `json:"thoughts"`
	// CacheHitRatio is cached / prompt (companion's addition).
	CacheHitRatio float64 `json:"cacheHitRatio"`
}

// geminiTools counts the prompt's tool calls: in all, per tool, how long
// they took and who decided them.
type geminiTools struct {
	TotalCalls      int                   `json:"totalCalls"`
	TotalSuccess    int                   `json:"totalSuccess"`
	TotalFail       int                   `json:"totalFail"`
	TotalDurationMS int64                 `json:"totalDurationMs"`
	TotalDecisions  geminiDecisions       `json:"totalDecisions"`
	ByName          map[string]geminiTool `json:"byName"`
	// DecidedBy is companion's finer count of who decided (policy or
	// rule, mode, user, hook; rejected, denied, blocked by a hook).
	DecidedBy agent.Decisions `json:"decidedBy"`
}

// geminiDecisions are Gemini CLI's decision counts: the user accepted,
// rejected or modified a call, or it was accepted without asking.
type geminiDecisions struct {
	Accept     int `json:"accept"`
	Reject     int `json:"reject"`
	Modify     int `json:"modify"`
	AutoAccept int `json:"auto_accept"`
}

// geminiTool is one tool's calls during the prompt.
type geminiTool struct {
	Count      int   `json:"count"`
	Success    int   `json:"success"`
	Fail       int   `json:"fail"`
	DurationMS int64 `json:"durationMs"`
}

// errorInfo is the json output's "error" when the prompt failed.
type errorInfo struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Error types of the json output's "error".
const (
	errTypeUsage       = "UsageError"
	errTypeNoSession   = "SessionNotFoundError"
	errTypeMaxTurns    = "MaxTurnsError"
	errTypeRefusal     = "RefusalError"
	errTypeExecution   = "ExecutionError"
	errTypeInterrupted = "InterruptedError"
)

// addGeminiFields sets res's Gemini CLI fields from the prompt's outcome.
func addGeminiFields(res *resultLine, o outcome) {
	text := res.Result
	res.Response = &text
	res.Stats = statsOf(o, res.ToolCalls)
	res.Error = errorOf(o)
}

// statsOf is the prompt's use per model and its tool calls.
func statsOf(o outcome, calls []toolCallRecord) *geminiStats {
	st := &geminiStats{Models: map[string]geminiModel{}}
	used := agent.SubModelTotals(o.afterModels, o.beforeModels)
	for name, u := range used {
		st.Models[name] = geminiModel{API: geminiAPI{TotalRequests: u.Requests, TotalErrors: u.Errors,
			TotalLatencyMS: u.Time.Milliseconds()}, Tokens: tokensOf(u.Tokens)}
	}
	st.Tools = toolsOf(o, calls)
	return st
}

// toolsOf counts the prompt's finished calls from its records, their
// time per tool and the decisions from the session's running totals.
func toolsOf(o outcome, calls []toolCallRecord) geminiTools {
	t := geminiTools{ByName: map[string]geminiTool{}, TotalDurationMS: (o.after.ToolTime - o.before.ToolTime).Milliseconds()}
	d := o.after.Decisions.Sub(o.before.Decisions)
	t.DecidedBy = d
	t.TotalDecisions = geminiDecisions{Accept: d.User, Reject: d.Rejected + d.Denied + d.Blocked, AutoAccept: d.Policy + d.Mode + d.Hook}
	used := agent.SubToolTotals(o.after.Tools, o.before.Tools)
	for _, c := range calls {
		if c.Status != string(agent.ToolCompleted) && c.Status != string(agent.ToolFailed) {
			continue
		}
		byName := t.ByName[c.Name]
		byName.Count++
		if c.IsError {
			t.TotalFail++
			byName.Fail++
		} else {
			t.TotalSuccess++
			byName.Success++
		}
		byName.DurationMS = used[c.Name].Time.Milliseconds()
		t.ByName[c.Name] = byName
		t.TotalCalls++
	}
	return t
}

// tokensOf is u in Gemini CLI's names (agent.TokensOf's figures).
func tokensOf(u model.Usage) geminiTokens {
	t := agent.TokensOf(u)
	return geminiTokens{Prompt: t.Prompt, Candidates: t.Output, Total: t.Total, Cached: t.Cached, Thoughts: t.Thoughts,
		CacheHitRatio: agent.CacheHitRatio(u)}
}

// errorOf is the outcome's error, or nil when the prompt did not fail.
func errorOf(o outcome) *errorInfo {
	switch {
	case o.err != nil && errors.Is(o.err, ErrUsage):
		return &errorInfo{Type: errTypeUsage, Message: o.err.Error()}
	case o.err != nil && (errors.Is(o.err, errNoSession) || errors.Is(o.err, errNoSessionHere)):
		return &errorInfo{Type: errTypeNoSession, Message: o.err.Error()}
	case o.err != nil:
		return &errorInfo{Type: errTypeExecution, Message: o.err.Error()}
	case o.stop == agent.MaxTurnRequests:
		return &errorInfo{Type: errTypeMaxTurns, Message: "the prompt reached its limit of model requests (--max-turns)"}
	case o.stop == agent.Refusal:
		return &errorInfo{Type: errTypeRefusal, Message: "the model refused to answer"}
	case o.stop == agent.Cancelled:
		return &errorInfo{Type: errTypeInterrupted, Message: "interrupted"}
	}
	return nil
}
