package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"

	"companion/agent/model"
)

// chunk is one streamed chat.completion.chunk: only the fields companion
// reads, including the non-standard reasoning fields.
type chunk struct {
	Choices []choice `json:"choices"`
	// Usage is set on the last chunk when stream_options.include_usage
	// was asked for; null or absent before.
	Usage *usage `json:"usage"`
}

// choice is one choice of a chunk.
type choice struct {
	Index        int64  `json:"index"`
	Delta        delta  `json:"delta"`
	FinishReason string `json:"finish_reason"`
}

// delta is the new content of a choice. Reasoning comes in non-standard
// fields: reasoning_content (DeepSeek, vLLM, llama.cpp, LM Studio) and
// reasoning (Ollama, OpenRouter, newer vLLM); they are kept raw because a
// server may send null or an object there.
type delta struct {
	Content          string          `json:"content"`
	Refusal          string          `json:"refusal"`
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Reasoning        json.RawMessage `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

// toolCallDelta is a piece of a tool call, matched to its call by index.
type toolCallDelta struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// usage is the token usage of a response.
type usage struct {
	PromptTokens            int `json:"prompt_tokens"`
	CompletionTokens        int `json:"completion_tokens"`
	TotalTokens             int `json:"total_tokens"`
	CompletionTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// streamState turns the chunks of one streamed response into model chunks.
// It is used by one goroutine.
type streamState struct {
	newID func() string
	log   *slog.Logger
	// events counts the chunks seen, to tell an empty stream from a short one.
	events int
	// calls are the tool calls being assembled, in order of first delta.
	calls []*pendingCall
	// finish is the raw finish_reason of choice 0, once sent.
	finish string
	usage  *model.Usage
}

// pendingCall is a tool call whose deltas are still arriving.
type pendingCall struct {
	index    int64
	id, name string
	args     argText
}

func newStreamState(newID func() string, log *slog.Logger) *streamState {
	return &streamState{newID: newID, log: log}
}

// add takes one streamed chunk and returns the parts it completes (text,
// thoughts, and all tool calls once finish_reason arrives), or nil. Only
// choice 0 is read; companion never asks for more.
func (s *streamState) add(c *chunk) *model.Chunk {
	s.events++
	if c.Usage != nil {
		s.usage = toUsage(c.Usage)
	}
	var parts []model.Part
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		d := &ch.Delta
		if r := reasoning(d); r != "" {
			parts = append(parts, model.Part{Text: r, Thought: true})
		}
		if d.Content != "" {
			parts = append(parts, model.Part{Text: d.Content})
		}
		if d.Refusal != "" {
			parts = append(parts, model.Part{Text: d.Refusal})
		}
		for j := range d.ToolCalls {
			s.addCall(&d.ToolCalls[j])
		}
		if ch.FinishReason != "" {
			s.finish = ch.FinishReason
			parts = append(parts, s.flushCalls()...)
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return &model.Chunk{Parts: parts}
}

// end is the last chunk of a stream that ended cleanly: any tool calls
// still pending (a server that never sent finish_reason), the finish
// reason (stop when none was sent) and the usage.
func (s *streamState) end() *model.Chunk {
	reason, msg := finishReason(s.finish)
	return &model.Chunk{Parts: s.flushCalls(), FinishReason: reason, FinishMessage: msg, Usage: s.usage}
}

// addCall merges one tool call delta into its pending call. Deltas are
// matched by index; a delta that brings a new id for an index whose call
// already has one starts a new call (servers that number every call 0).
func (s *streamState) addCall(tc *toolCallDelta) {
	var pc *pendingCall
	for k := len(s.calls) - 1; k >= 0; k-- {
		if s.calls[k].index == tc.Index {
			pc = s.calls[k]
			break
		}
	}
	if pc != nil && tc.ID != "" && pc.id != "" && tc.ID != pc.id {
		pc = nil
	}
	if pc == nil {
		pc = &pendingCall{index: tc.Index}
		s.calls = append(s.calls, pc)
	}
	if tc.ID != "" {
		pc.id = tc.ID
	}
	if pc.name == "" {
		pc.name = tc.Function.Name
	}
	pc.args.add(tc.Function.Arguments)
}

// flushCalls turns the pending calls into function call parts and forgets
// them. A call that never got a name cannot be run and is dropped.
func (s *streamState) flushCalls() []model.Part {
	if len(s.calls) == 0 {
		return nil
	}
	parts := make([]model.Part, 0, len(s.calls))
	for _, pc := range s.calls {
		if pc.name == "" {
			s.log.Warn("openai: dropping a tool call without a name", slog.String("id", pc.id))
			continue
		}
		id := pc.id
		if id == "" {
			id = s.newID()
		}
		parts = append(parts, model.Part{FunctionCall: &model.FunctionCall{ID: id, Name: pc.name, Args: s.parseArgs(pc)}})
	}
	clear(s.calls) // so that their text is garbage once decoded
	s.calls = s.calls[:0]
	return parts
}

// maxLoggedArgs bounds the argument text a warning quotes: a malformed
// call may be a whole file.
const maxLoggedArgs = 1 << 10

// parseArgs decodes a call's argument text: a JSON object, or a JSON
// string holding one (some models encode twice). Anything else is logged
// and yields no arguments, so the tool's own validation tells the model
// what is missing.
func (s *streamState) parseArgs(pc *pendingCall) map[string]any {
	text := bytes.TrimSpace(pc.args.bytes())
	if len(text) == 0 || string(text) == "null" {
		return nil
	}
	var v any
	if err := json.Unmarshal(text, &v); err == nil {
		if inner, ok := v.(string); ok {
			v = nil
			_ = json.Unmarshal([]byte(inner), &v) // v stays nil if it is not JSON
		}
		if m, ok := v.(map[string]any); ok {
			return m
		}
	}
	s.log.Warn("openai: tool call arguments are not a JSON object", slog.String("tool", pc.name),
		slog.Int("bytes", len(text)), slog.String("arguments", string(text[:min(len(text), maxLoggedArgs)])))
	return nil
}

// reasoning is the reasoning text of a delta: reasoning_content, else
// reasoning, whichever first holds a non-empty string, so a server that
// sends both is not read twice.
func reasoning(d *delta) string {
	if r := jsonString(string(d.ReasoningContent)); r != "" {
		return r
	}
	return jsonString(string(d.Reasoning))
}

// jsonString decodes a raw JSON string value; anything else is "". Strings
// without escapes, the usual case for streamed tokens, are sliced without
// decoding.
func jsonString(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if inner := raw[1 : len(raw)-1]; raw[len(raw)-1] == '"' && !strings.ContainsAny(inner, `\"`) {
		return inner
	}
	var s string
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return ""
	}
	return s
}

// finishReason normalises a finish_reason and explains any other than a
// plain stop. Tool calls count as a stop: the turn loop sees the calls.
func finishReason(r string) (model.FinishReason, string) {
	switch r {
	case "", "stop", "tool_calls", "function_call":
		return model.FinishStop, ""
	case "length":
		return model.FinishMaxTokens, "The response was cut off at the model's output token limit (length)."
	case "content_filter":
		return model.FinishSafety, "The server's content filter stopped the response (content_filter)."
	default:
		return model.FinishOther, fmt.Sprintf("The model stopped the response early (%s).", model.OneLine(r))
	}
}

// toUsage maps the usage of a response. Completion tokens include the
// reasoning tokens in the OpenAI shape; model.Usage counts them apart.
func toUsage(u *usage) *model.Usage {
	completion, thought := u.CompletionTokens, u.CompletionTokensDetails.ReasoningTokens
	out := &model.Usage{
		PromptTokens:  u.PromptTokens,
		OutputTokens:  completion,
		ThoughtTokens: thought,
		CachedTokens:  u.PromptTokensDetails.CachedTokens,
		TotalTokens:   u.TotalTokens,
	}
	if thought <= completion {
		out.OutputTokens = completion - thought
	}
	if out.TotalTokens == 0 {
		out.TotalTokens = out.PromptTokens + out.OutputTokens + out.ThoughtTokens
	}
	return out
}
