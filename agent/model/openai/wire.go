package openai

import (
	"bytes"
	"encoding/json"
)

// chatRequest is the body of POST /chat/completions, as companion sends
// it: every field is typed, and a field is omitted only when companion
// means to leave it out (a nil pointer, no tools), never because its value
// happens to be zero, so a temperature of 0 and a tool's empty output are
// sent. It is marshalled once per Stream call (marshal) and the same bytes
// are sent by every attempt.
type chatRequest struct {
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
	Tools    []tool    `json:"tools,omitempty"`
	// Temperature is set only when the caller asked for one (an MCP
	// server's sampling request).
	Temperature         *float64       `json:"temperature,omitempty"`
	MaxCompletionTokens *int           `json:"max_completion_tokens,omitempty"`
	Stream              bool           `json:"stream"`
	StreamOptions       *streamOptions `json:"stream_options,omitempty"`
}

// streamOptions asks for the usage chunk at the end of a stream.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// Message roles.
const (
	roleSystem    = "system"
	roleUser      = "user"
	roleAssistant = "assistant"
	roleTool      = "tool"
)

// message is one chat message. Content is nil for an assistant message
// that only calls tools, and otherwise always sent, "" included (a tool
// message must have content).
type message struct {
	Role       string     `json:"role"`
	Content    *content   `json:"content,omitempty"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// content is a message's content: a plain string, or a list of parts when
// parts is not nil (text and images).
type content struct {
	text  string
	parts []contentPart
}

// textContent is content of one string.
func textContent(s string) *content { return &content{text: s} }

// MarshalJSON writes the string, or the list of parts.
func (c *content) MarshalJSON() ([]byte, error) {
	if c.parts != nil {
		return marshal(c.parts)
	}
	return marshal(c.text)
}

// contentPart is a part of a user message: text, or an image by URL.
type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

// imageURL is an image part's address (companion sends data: URLs).
type imageURL struct {
	URL string `json:"url"`
}

// tool declares one function the model may call.
type tool struct {
	Type     string   `json:"type"`
	Function function `json:"function"`
}

// function is a tool's name, description and JSON schema; the schema is
// sent as the caller wrote it, and left out when there is none.
type function struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

// toolCall is a call an assistant message made.
type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

// functionCall is a call's function name and its arguments as JSON text.
type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// marshal encodes r once (every attempt sends the same bytes).
func (r *chatRequest) marshal() ([]byte, error) { return marshal(r) }

// marshal encodes v without escaping <, > and & (prompts and tool
// descriptions are full of them, and the API reads JSON, not HTML).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
