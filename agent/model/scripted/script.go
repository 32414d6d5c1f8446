package scripted

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Script is what the scripted model answers, turn by turn. See README.md
// for the file format. A Script must not change once a Server uses it.
type Script struct {
	// Turns answer requests in order; see Turn.Match.
	Turns []Turn `json:"turns"`
	// Fallback answers requests when no turn is left: FallbackEcho (the
	// default) or FallbackError.
	Fallback string `json:"fallback,omitempty"`
	// APIKey, when set, is the only key the server accepts (403 otherwise).
	APIKey string `json:"apiKey,omitempty"`
	// Models are what the OpenAI-shaped server lists at GET /v1/models.
	Models []string `json:"models,omitempty"`
}

// Fallback modes.
const (
	// FallbackEcho answers "(demo model) You said: <last user text>".
	FallbackEcho = "echo"
	// FallbackError answers HTTP 500 saying the script ran out.
	FallbackError = "error"
)

// Turn is one scripted answer.
type Turn struct {
	// Match, when set, restricts the turn to requests whose raw JSON body
	// contains it (as sent, i.e. JSON-escaped).
	Match string `json:"match,omitempty"`
	// Chunks are streamed one per SSE event.
	Chunks []Chunk `json:"chunks,omitempty"`
	// DelayMs is waited before each chunk.
	DelayMs int `json:"delayMs,omitempty"`
	// FinishReason ends the last chunk; default "STOP".
	FinishReason string `json:"finishReason,omitempty"`
	// BlockReason answers with promptFeedback.blockReason and no candidates.
	BlockReason string `json:"blockReason,omitempty"`
	// Usage is reported on the last chunk; when nil a rough count is sent.
	Usage *Usage `json:"usage,omitempty"`
	// Status, when non-zero, answers with this HTTP error instead of a
	// stream, with Message, an optional google.rpc.RetryInfo RetryDelay
	// (e.g. "1s") and an optional Retry-After header value RetryAfter.
	Status     int    `json:"status,omitempty"`
	Message    string `json:"message,omitempty"`
	RetryDelay string `json:"retryDelay,omitempty"`
	RetryAfter string `json:"retryAfter,omitempty"`
	// Times is how many requests the turn answers; default 1.
	Times int `json:"times,omitempty"`
	// Hang keeps the stream open after the chunks, without a finish, until
	// the client goes away.
	Hang bool `json:"hang,omitempty"`
	// Grounding, when set, is sent as the candidate's groundingMetadata
	// (Gemini shape only), as a Google Search grounded answer carries.
	Grounding *Grounding `json:"grounding,omitempty"`
}

// Grounding is a scripted grounded answer's metadata: the searches run,
// the web sources, and which bytes of the answer's text each source
// supports.
type Grounding struct {
	Queries  []string  `json:"queries,omitempty"`
	Sources  []Source  `json:"sources,omitempty"`
	Supports []Support `json:"supports,omitempty"`
}

// Source is one web page of a grounded answer.
type Source struct {
	Title string `json:"title"`
	URI   string `json:"uri"`
}

// Support ties the answer's bytes [Start, End) to Sources (indices).
type Support struct {
	Start   int   `json:"start"`
	End     int   `json:"end"`
	Sources []int `json:"sources"`
}

// Chunk is one streamed part: exactly one of Text, Thought and
// FunctionCall, optionally with a ThoughtSignature (plain text here; the
// server sends it base64-encoded, as the API does).
type Chunk struct {
	Text             string        `json:"text,omitempty"`
	Thought          string        `json:"thought,omitempty"`
	ThoughtSignature string        `json:"thoughtSignature,omitempty"`
	FunctionCall     *FunctionCall `json:"functionCall,omitempty"`
}

// FunctionCall is a scripted tool call. ID is usually left empty, as the
// Gemini API does.
type FunctionCall struct {
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name"`
	Args map[string]any `json:"args,omitempty"`
}

// Usage is a scripted token count.
type Usage struct {
	PromptTokens  int `json:"promptTokens"`
	OutputTokens  int `json:"outputTokens"`
	ThoughtTokens int `json:"thoughtTokens,omitempty"`
}

// LoadScript reads and checks a script file.
func LoadScript(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("scripted: %w", err)
	}
	s, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseScript decodes and checks a script. Unknown fields are errors, so a
// misspelt key does not silently do nothing.
func ParseScript(data []byte) (*Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadScript, err)
	}
	if err := s.check(); err != nil {
		return nil, err
	}
	return &s, nil
}

// check reports the first inconsistency in s.
func (s *Script) check() error {
	if s.Fallback != "" && s.Fallback != FallbackEcho && s.Fallback != FallbackError {
		return fmt.Errorf("%w: fallback %q is neither %q nor %q", ErrBadScript, s.Fallback, FallbackEcho, FallbackError)
	}
	for i, t := range s.Turns {
		if err := t.check(); err != nil {
			return fmt.Errorf("%w: turn %d: %w", ErrBadScript, i+1, err)
		}
	}
	return nil
}

// check reports the first inconsistency in t.
func (t *Turn) check() error {
	switch {
	case t.Times < 0 || t.DelayMs < 0:
		return fmt.Errorf("times and delayMs must not be negative")
	case t.Status != 0 && (t.Status < 400 || t.Status > 599):
		return fmt.Errorf("status %d is not an HTTP error status", t.Status)
	case t.BlockReason != "" && len(t.Chunks) > 0:
		return fmt.Errorf("a blockReason turn has no chunks")
	}
	if t.RetryDelay != "" {
		if _, err := time.ParseDuration(t.RetryDelay); err != nil {
			return fmt.Errorf("retryDelay: %w", err)
		}
	}
	for j, c := range t.Chunks {
		n := 0
		for _, set := range []bool{c.Text != "", c.Thought != "", c.FunctionCall != nil} {
			if set {
				n++
			}
		}
		if n > 1 || (n == 0 && c.ThoughtSignature == "") {
			return fmt.Errorf("chunk %d: set exactly one of text, thought and functionCall", j+1)
		}
		if c.FunctionCall != nil && c.FunctionCall.Name == "" {
			return fmt.Errorf("chunk %d: functionCall has no name", j+1)
		}
	}
	return t.Grounding.check()
}

// check reports a support that names no source or runs backwards.
func (g *Grounding) check() error {
	if g == nil {
		return nil
	}
	for i, s := range g.Supports {
		if s.Start < 0 || s.End < s.Start {
			return fmt.Errorf("grounding support %d: start %d, end %d", i+1, s.Start, s.End)
		}
		for _, n := range s.Sources {
			if n < 0 || n >= len(g.Sources) {
				return fmt.Errorf("grounding support %d: no source %d", i+1, n)
			}
		}
	}
	return nil
}

// times is how many requests t answers.
func (t *Turn) times() int {
	if t.Times == 0 {
		return 1
	}
	return t.Times
}
