package model

import (
	"context"
	"encoding/json"
	"iter"
)

// Role says who produced a Content.
type Role string

// Roles of a conversation turn.
const (
	RoleUser  Role = "user"
	RoleModel Role = "model"
)

// Content is one turn of the conversation: the user's (prompt text, tool
// results) or the model's (text, thoughts, function calls).
type Content struct {
	Role  Role   `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one piece of a Content. Exactly one of Text, InlineData,
// FunctionCall and FunctionResponse is set; Thought marks Text as reasoning.
type Part struct {
	Text             string            `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature []byte            `json:"thoughtSignature,omitempty"`
	InlineData       *Blob             `json:"inlineData,omitempty"`
	FunctionCall     *FunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *FunctionResponse `json:"functionResponse,omitempty"`
}

// Blob is inline binary data such as an image.
type Blob struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// FunctionCall is the model asking for a tool to run.
type FunctionCall struct {
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
}

// FunctionResponse carries a tool's result back to the model. Response is
// {"output": ...} on success and {"error": ...} on failure; Parts holds extra
// media (images) the tool produced.
type FunctionResponse struct {
	ID       string         `json:"id,omitempty"`
	Name     string         `json:"name"`
	Response map[string]any `json:"response"`
	Parts    []Part         `json:"parts,omitempty"`
}

// ToolDecl declares a tool to the model. Parameters is a JSON Schema object.
type ToolDecl struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Request is everything one model call needs.
type Request struct {
	// Model is the model id, e.g. "gemini-2.5-pro".
	Model    string     `json:"model"`
	System   string     `json:"system,omitempty"`
	Contents []Content  `json:"contents"`
	Tools    []ToolDecl `json:"tools,omitempty"`
	// ThinkingBudget caps the model's reasoning tokens; nil leaves the
	// provider's default (dynamic thinking).
	ThinkingBudget *int `json:"thinkingBudget,omitempty"`
	// MaxOutputTokens caps the answer and Temperature sets the sampling
	// temperature; nil leaves the provider's defaults (an MCP server's
	// sampling request sets them).
	MaxOutputTokens *int     `json:"maxOutputTokens,omitempty"`
	Temperature     *float64 `json:"temperature,omitempty"`
}

// TokenCounter is implemented by providers that can count a request's
// tokens (Gemini's countTokens); the agent uses it when a response came
// without usage.
type TokenCounter interface {
	CountTokens(ctx context.Context, req *Request) (int, error)
}

// Thinker is implemented by providers whose models take a thinking budget.
type Thinker interface {
	ThinkingBudgets(model string) bool
}

// FinishReason says why the model stopped, normalised across providers.
type FinishReason string

// Finish reasons. FinishNone means the stream has not said yet.
const (
	FinishNone      FinishReason = ""
	FinishStop      FinishReason = "stop"
	FinishMaxTokens FinishReason = "max_tokens"
	FinishSafety    FinishReason = "safety"
	FinishOther     FinishReason = "other"
)

// Usage counts tokens for one model call.
type Usage struct {
	PromptTokens  int `json:"promptTokens"`
	OutputTokens  int `json:"outputTokens"`
	ThoughtTokens int `json:"thoughtTokens,omitempty"`
	CachedTokens  int `json:"cachedTokens,omitempty"`
	TotalTokens   int `json:"totalTokens"`
}

// Add adds o's counts to u.
func (u *Usage) Add(o Usage) {
	u.PromptTokens += o.PromptTokens
	u.OutputTokens += o.OutputTokens
	u.ThoughtTokens += o.ThoughtTokens
	u.CachedTokens += o.CachedTokens
	u.TotalTokens += o.TotalTokens
}

// Sub returns u minus o: the use between two running totals.
func (u Usage) Sub(o Usage) Usage {
	return Usage{PromptTokens: u.PromptTokens - o.PromptTokens, OutputTokens: u.OutputTokens - o.OutputTokens,
		ThoughtTokens: u.ThoughtTokens - o.ThoughtTokens, CachedTokens: u.CachedTokens - o.CachedTokens,
		TotalTokens: u.TotalTokens - o.TotalTokens}
}

// Chunk is one streamed piece of a model response. Parts are new parts only
// (text deltas, whole function calls); FinishReason and Usage are set when the
// provider reports them, usually on the last chunk.
type Chunk struct {
	Parts        []Part
	FinishReason FinishReason
	// FinishMessage explains a non-stop finish (safety category, etc.).
	FinishMessage string
	Usage         *Usage
}

// Model streams responses from a language model.
type Model interface {
	// Stream sends req and yields chunks as they arrive. A non-nil error ends
	// the sequence; when ctx is cancelled the error wraps ctx.Err().
	Stream(ctx context.Context, req *Request) iter.Seq2[*Chunk, error]
	// ContextWindow is the model's input window in tokens, for usage updates
	// and compression.
	ContextWindow(model string) int
}
