package headless

import (
	"encoding/json"

	"companion/agent/model"
)

// Message types on the stream-json wire.
const (
	typeSystem       = "system"
	typeAssistant    = "assistant"
	typeUser         = "user"
	typeResult       = "result"
	typeStreamEvent  = "stream_event"
	typeControlReq   = "control_request"
	typeControlResp  = "control_response"
	typeControlAbort = "control_cancel_request"
)

// block is one content block of a user or assistant message.
type block struct {
	Type string `json:"type"`
	// text
	Text *string `json:"text,omitempty"`
	// thinking
	Thinking *string `json:"thinking,omitempty"`
	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// tool_result
	ToolUseID string  `json:"tool_use_id,omitempty"`
	Content   *string `json:"content,omitempty"`
	IsError   *bool   `json:"is_error,omitempty"`
}

// apiMessage is the message inside an assistant or user line.
type apiMessage struct {
	ID         string  `json:"id,omitempty"`
	Type       string  `json:"type,omitempty"`
	Role       string  `json:"role"`
	Model      string  `json:"model,omitempty"`
	Content    []block `json:"content"`
	StopReason *string `json:"stop_reason,omitempty"`
	Usage      *usage  `json:"usage,omitempty"`
}

// usage is token use in the shape SDKs read.
type usage struct {
	InputTokens     int `json:"input_tokens"`
	OutputTokens    int `json:"output_tokens"`
	ThoughtTokens   int `json:"thought_tokens"`
	CacheReadTokens int `json:"cache_read_input_tokens"`
}

func usageOf(u model.Usage) usage {
	return usage{InputTokens: u.PromptTokens, OutputTokens: u.OutputTokens, ThoughtTokens: u.ThoughtTokens, CacheReadTokens: u.CachedTokens}
}

// envelope is what every stream-json output line has.
type envelope struct {
	Type      string `json:"type"`
	Subtype   string `json:"subtype,omitempty"`
	UUID      string `json:"uuid"`
	SessionID string `json:"session_id"`
}

// chatLine is an assistant or user line.
type chatLine struct {
	envelope
	Message         apiMessage `json:"message"`
	ParentToolUseID *string    `json:"parent_tool_use_id"`
}

// streamLine is a partial-message event line.
type streamLine struct {
	envelope
	Event           any     `json:"event"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
}

// toolCallRecord is one tool call in the json output.
type toolCallRecord struct {
	ID      string          `json:"id"`
	Name    string          `json:"name"`
	Title   string          `json:"title,omitempty"`
	Kind    string          `json:"kind,omitempty"`
	Input   json.RawMessage `json:"input"`
	Status  string          `json:"status"`
	IsError bool            `json:"is_error"`
	Output  string          `json:"output"`
}

// denial is a tool call refused on the way (by the policy, the SDK or a hook).
type denial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// resultLine ends each prompt.
type resultLine struct {
	envelope
	IsError           bool             `json:"is_error"`
	Result            string           `json:"result"`
	StopReason        string           `json:"stop_reason"`
	NumTurns          int              `json:"num_turns"`
	DurationMS        int64            `json:"duration_ms"`
	DurationAPIMS     int64            `json:"duration_api_ms"`
	Usage             usage            `json:"usage"`
	PermissionDenials []denial         `json:"permission_denials"`
	Errors            []string         `json:"errors"`
	ToolCalls         []toolCallRecord `json:"tool_calls,omitempty"`
	// Response, Stats and Error are Gemini CLI's fields (json output
	// only): see geminiStats.
	Response *string      `json:"response,omitempty"`
	Stats    *geminiStats `json:"stats,omitempty"`
	Error    *errorInfo   `json:"error,omitempty"`
}

// controlResponseBody is the inner response of a control response.
type controlResponseBody struct {
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	Response  any    `json:"response,omitempty"`
	Error     string `json:"error,omitempty"`
}

// controlResponse answers a control request.
type controlResponse struct {
	Type     string              `json:"type"`
	Response controlResponseBody `json:"response"`
}

// inbound is any stdin line, decoded far enough to route it.
type inbound struct {
	Type      string          `json:"type"`
	RequestID json.RawMessage `json:"request_id"`
	Request   json.RawMessage `json:"request"`
	Response  json.RawMessage `json:"response"`
	Message   json.RawMessage `json:"message"`
}

// requestID reads a request_id given as a string or a number; ok is false
// when it is missing or empty.
func (in inbound) requestID() (string, bool) {
	var s string
	if json.Unmarshal(in.RequestID, &s) == nil {
		return s, s != ""
	}
	var n json.Number
	if json.Unmarshal(in.RequestID, &n) == nil {
		return n.String(), true
	}
	return "", false
}

// systemLine is a system message: the envelope first, then its fields.
type systemLine struct {
	envelope
	fields map[string]any
}

// MarshalJSON writes the envelope's members before the fields', so a
// person reading the stream sees the type first.
func (l systemLine) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(l.envelope)
	if err != nil {
		return nil, err
	}
	for k := range l.fields {
		if k == "type" || k == "subtype" || k == "uuid" || k == "session_id" {
			delete(l.fields, k)
		}
	}
	if len(l.fields) == 0 {
		return head, nil
	}
	tail, err := json.Marshal(l.fields)
	if err != nil {
		return nil, err
	}
	return append(append(head[:len(head)-1], ','), tail[1:]...), nil
}
