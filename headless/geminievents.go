package headless

import (
	"encoding/json"
	"time"

	"companion/agent"
	"companion/agent/model"
)

// formatGeminiStream is stream-json in Gemini CLI's events, the reporter's
// format for a run started the way Gemini CLI users start one
// (Options.GeminiCLI): init, message, tool_use, tool_result, error and
// result lines, each with its timestamp (PROTOCOL.md, "Gemini CLI's
// stream-json").
const formatGeminiStream = "gemini-stream-json"

// Exit codes of a run started as Gemini CLI's (Options.GeminiCLI), as
// Gemini CLI documents them for headless runs.
const (
	// ExitGeminiInput: the prompt or the arguments were bad (ExitUsage).
	ExitGeminiInput = 42
	// ExitGeminiTurnLimit: the prompt reached --max-turns.
	ExitGeminiTurnLimit = 53
)

// geminiEvent is one line of Gemini CLI's stream-json. Which fields a
// line has depends on its type.
type geminiEvent struct {
	Type      string `json:"type"`
	Timestamp string `json:"timestamp"`
	// init
	SessionID string `json:"session_id,omitempty"`
	Model     string `json:"model,omitempty"`
	// message
	Role    string  `json:"role,omitempty"`
	Content *string `json:"content,omitempty"`
	Delta   bool    `json:"delta,omitempty"`
	// tool_use
	ToolName   string          `json:"tool_name,omitempty"`
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// tool_use, tool_result
	ToolID string `json:"tool_id,omitempty"`
	// tool_result, result
	Status string     `json:"status,omitempty"`
	Output *string    `json:"output,omitempty"`
	Error  *errorInfo `json:"error,omitempty"`
	// error
	Severity string `json:"severity,omitempty"`
	Message  string `json:"message,omitempty"`
	// result
	Stats *geminiStreamStats `json:"stats,omitempty"`
}

// geminiStreamStats are a result line's figures: tokens in all (input
// split into cached and not), the prompt's time and tool calls, and the
// tokens per model.
type geminiStreamStats struct {
	geminiModelStats
	DurationMS int64                       `json:"duration_ms"`
	ToolCalls  int                         `json:"tool_calls"`
	Models     map[string]geminiModelStats `json:"models"`
}

// geminiModelStats are token counts as Gemini CLI's result line has them.
type geminiModelStats struct {
	TotalTokens  int `json:"total_tokens"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	Cached       int `json:"cached"`
	Input        int `json:"input"`
}

// Tool error types on a Gemini CLI tool_result line.
const (
	toolErrExecution = "TOOL_EXECUTION_ERROR"
	toolErrDenied    = "PERMISSION_DENIED"
)

// gemini writes one Gemini CLI event, stamped now.
func (r *reporter) gemini(ev geminiEvent) {
	ev.Timestamp = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	r.lines.write(ev)
}

// geminiText writes a piece of the answer, or the user's prompt, as a
// message line.
func (r *reporter) geminiText(role, text string) {
	r.gemini(geminiEvent{Type: "message", Role: role, Content: &text, Delta: role == "assistant"})
}

// userPrompt writes the prompt as Gemini CLI's first message line; other
// formats show nothing.
func (r *reporter) userPrompt(text string) {
	if r.format == formatGeminiStream {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.geminiText("user", text)
	}
}

// geminiSystem writes what a system line says in Gemini CLI's events: the
// init line, or a notice (a model change too) as an error line.
func (r *reporter) geminiSystem(subtype string, fields map[string]any) {
	switch subtype {
	case "init":
		r.gemini(geminiEvent{Type: "init", SessionID: r.session, Model: r.model()})
	case "notice", "model_changed":
		sev := "warning"
		if fields["level"] == "error" {
			sev = "error"
		}
		r.gemini(geminiEvent{Type: "error", Severity: sev, Message: noticeText(subtype, fields)})
	}
}

// geminiToolResult writes a finished call's tool_result line.
func (r *reporter) geminiToolResult(c *toolCallRecord, refused bool) {
	ev := geminiEvent{Type: "tool_result", ToolID: c.ID, Status: "success", Output: &c.Output}
	if c.IsError {
		typ := toolErrExecution
		if refused {
			typ = toolErrDenied
		}
		ev.Status, ev.Error = "error", &errorInfo{Type: typ, Message: c.Output}
	}
	r.gemini(ev)
}

// geminiResult writes the prompt's result line.
func (r *reporter) geminiResult(o outcome, calls int) {
	st := &geminiStreamStats{geminiModelStats: tokenStats(o.after.Tokens.Sub(o.before.Tokens)),
		DurationMS: o.duration().Milliseconds(), ToolCalls: calls, Models: map[string]geminiModelStats{}}
	for name, u := range agent.SubModelTotals(o.afterModels, o.beforeModels) {
		st.Models[name] = tokenStats(u.Tokens)
	}
	ev := geminiEvent{Type: "result", Status: "success", Stats: st, Error: errorOf(o)}
	if ev.Error != nil {
		ev.Status = "error"
	}
	r.gemini(ev)
}

// tokenStats are u's tokens as a Gemini CLI result line counts them:
// input is the prompt tokens not served from the cache.
func tokenStats(u model.Usage) geminiModelStats {
	t := agent.TokensOf(u)
	return geminiModelStats{TotalTokens: t.Total, InputTokens: t.Prompt, OutputTokens: t.Output, Cached: t.Cached,
		Input: max(t.Prompt-t.Cached, 0)}
}
