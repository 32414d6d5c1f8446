package sdktest

import (
	"encoding/json"
	"strings"
)

// Message is one line companion wrote to stdout. Type and Subtype are read
// from every line; Raw keeps the line for decoding the rest.
type Message struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype,omitempty"`
	UUID      string `json:"uuid,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	// Raw is the line as companion wrote it.
	Raw json.RawMessage `json:"-"`
}

// Decode unmarshals the whole line into v.
func (m Message) Decode(v any) error { return json.Unmarshal(m.Raw, v) }

// Map is the line as a generic JSON object (nil when it is not one).
func (m Message) Map() map[string]any {
	var v map[string]any
	json.Unmarshal(m.Raw, &v)
	return v
}

// Is reports whether the message has type typ and, when subtype is not
// empty, that subtype.
func (m Message) Is(typ, subtype string) bool {
	return m.Type == typ && (subtype == "" || m.Subtype == subtype)
}

// String is the raw line, for failure messages.
func (m Message) String() string { return string(m.Raw) }

// Block is one content block of an assistant or user message.
type Block struct {
	Type      string         `json:"type"`
	Text      string         `json:"text,omitempty"`
	Thinking  string         `json:"thinking,omitempty"`
	ID        string         `json:"id,omitempty"`
	Name      string         `json:"name,omitempty"`
	Input     map[string]any `json:"input,omitempty"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
	// Content is a tool_result's content: a string or a list of blocks.
	Content json.RawMessage `json:"content,omitempty"`
	IsError bool            `json:"is_error,omitempty"`
}

// ContentText is a tool_result's content as text: the string itself, or
// the text blocks of a list joined by newlines.
func (b Block) ContentText() string {
	var s string
	if json.Unmarshal(b.Content, &s) == nil {
		return s
	}
	var blocks []Block
	if json.Unmarshal(b.Content, &blocks) == nil {
		var parts []string
		for _, c := range blocks {
			parts = append(parts, c.Text)
		}
		return strings.Join(parts, "\n")
	}
	return string(b.Content)
}

// Chat is the `message` field of an assistant or user message.
type Chat struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	Role       string          `json:"role"`
	Model      string          `json:"model"`
	Content    []Block         `json:"content"`
	StopReason string          `json:"stop_reason"`
	Usage      json.RawMessage `json:"usage"`
}

// Chat decodes the message's `message` field (assistant and user messages).
func (m Message) Chat() (Chat, error) {
	var v struct {
		Message Chat `json:"message"`
	}
	err := json.Unmarshal(m.Raw, &v)
	return v.Message, err
}

// Blocks is the content of an assistant or user message (nil for others).
func (m Message) Blocks() []Block {
	c, _ := m.Chat()
	return c.Content
}

// Usage is the token usage of a result or an assistant message.
type Usage struct {
	InputTokens          int `json:"input_tokens"`
	OutputTokens         int `json:"output_tokens"`
	ThoughtTokens        int `json:"thought_tokens"`
	CacheReadInputTokens int `json:"cache_read_input_tokens"`
}

// ToolCall is one entry of the json output's tool_calls.
type ToolCall struct {
	ID      string         `json:"id"`
	Name    string         `json:"name"`
	Input   map[string]any `json:"input"`
	Status  string         `json:"status"`
	IsError bool           `json:"is_error"`
	Output  string         `json:"output"`
}

// Result is a `result` message: the end of a prompt (and the whole json
// output of a run).
type Result struct {
	Type              string            `json:"type"`
	Subtype           string            `json:"subtype"`
	IsError           bool              `json:"is_error"`
	SessionID         string            `json:"session_id"`
	Result            string            `json:"result"`
	StopReason        string            `json:"stop_reason"`
	NumTurns          int               `json:"num_turns"`
	DurationMS        int64             `json:"duration_ms"`
	DurationAPIMS     int64             `json:"duration_api_ms"`
	Usage             *Usage            `json:"usage"`
	ToolCalls         []ToolCall        `json:"tool_calls"`
	PermissionDenials []json.RawMessage `json:"permission_denials"`
	Errors            []json.RawMessage `json:"errors"`
}

// ErrorText joins the result's errors (strings or objects) into one text.
func (r Result) ErrorText() string {
	var parts []string
	for _, e := range r.Errors {
		var s string
		if json.Unmarshal(e, &s) == nil {
			parts = append(parts, s)
			continue
		}
		parts = append(parts, string(e))
	}
	return strings.Join(parts, "\n")
}

// Result decodes a result message.
func (m Message) Result() (Result, error) {
	var r Result
	err := json.Unmarshal(m.Raw, &r)
	return r, err
}

// Init is the system/init message.
type Init struct {
	Cwd            string          `json:"cwd"`
	Tools          []string        `json:"tools"`
	MCPServers     []ServerStatus  `json:"mcp_servers"`
	Model          string          `json:"model"`
	Models         json.RawMessage `json:"models"`
	PermissionMode string          `json:"permission_mode"`
	SlashCommands  json.RawMessage `json:"slash_commands"`
	Agents         json.RawMessage `json:"agents"`
	Version        string          `json:"companion_version"`
}

// Init decodes a system/init message.
func (m Message) Init() (Init, error) {
	var v Init
	err := json.Unmarshal(m.Raw, &v)
	return v, err
}

// ServerStatus is one MCP server in system/init or mcp_server_status.
type ServerStatus struct {
	Name      string   `json:"name"`
	Status    string   `json:"status"`
	Error     string   `json:"error,omitempty"`
	Tools     []string `json:"tools,omitempty"`
	Transport string   `json:"transport,omitempty"`
}

// Names reads a list that holds names either as strings or as objects
// with a "name" field (slash_commands, agents, models).
func Names(raw json.RawMessage) []string {
	var strs []string
	if json.Unmarshal(raw, &strs) == nil {
		return strs
	}
	var objs []struct {
		Name string `json:"name"`
		ID   string `json:"id"`
	}
	if json.Unmarshal(raw, &objs) == nil {
		for _, o := range objs {
			strs = append(strs, o.Name+o.ID)
		}
		return strs
	}
	var byName map[string]json.RawMessage
	if json.Unmarshal(raw, &byName) == nil {
		for n := range byName {
			strs = append(strs, n)
		}
	}
	return strs
}

// ParseLine reads one stream-json output line.
func ParseLine(line []byte) (Message, error) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		return m, err
	}
	if m.Type == "" {
		return m, errNoType
	}
	m.Raw = append(json.RawMessage(nil), line...)
	return m, nil
}
