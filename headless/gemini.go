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

// geminiAPI counts a model's requests.
type geminiAPI struct {
	TotalRequests int `json:"totalRequests"`
}

// geminiTokens are a model's token counts: prompt (input), candidates
// (output), cached (part of prompt), thoughts, and their total.
type geminiTokens struct {
	Prompt     int `json:"prompt"`
	Candidates int `json:"candidates"`
	Total      int `json:"total"`
	Cached     int `json:"cached"`
	Thoughts   int `json:"thoughts"`
}

// geminiTools counts the prompt's tool calls.
type geminiTools struct {
	TotalCalls   int `json:"totalCalls"`
	TotalSuccess int `json:"totalSuccess"`
	TotalFail    int `json:"totalFail"`
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
		st.Models[name] = geminiModel{API: geminiAPI{TotalRequests: u.Requests}, Tokens: tokensOf(u.Tokens)}
	}
	for _, c := range calls {
		switch {
		case c.Status != string(agent.ToolCompleted) && c.Status != string(agent.ToolFailed):
			continue
		case c.IsError:
			st.Tools.TotalFail++
		default:
			st.Tools.TotalSuccess++
		}
		st.Tools.TotalCalls++
	}
	return st
}

// tokensOf is u in Gemini CLI's names; a total the provider did not
// report is the sum of the parts.
func tokensOf(u model.Usage) geminiTokens {
	t := geminiTokens{Prompt: u.PromptTokens, Candidates: u.OutputTokens, Total: u.TotalTokens,
		Cached: u.CachedTokens, Thoughts: u.ThoughtTokens}
	if t.Total == 0 {
		t.Total = t.Prompt + t.Candidates + t.Thoughts
	}
	return t
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
