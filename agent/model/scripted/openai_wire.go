package scripted

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"
)

// Wire shapes of OpenAI Chat Completions, as much of them as clients read.
type (
	oaCompletion struct {
		ID      string     `json:"id"`
		Object  string     `json:"object"`
		Created int64      `json:"created"`
		Model   string     `json:"model"`
		Choices []oaChoice `json:"choices"`
		Usage   *oaUsage   `json:"usage,omitempty"`
	}
	oaChoice struct {
		Index        int        `json:"index"`
		Delta        *oaDelta   `json:"delta,omitempty"`
		Message      *oaMessage `json:"message,omitempty"`
		FinishReason *string    `json:"finish_reason"`
	}
	oaDelta struct {
		Role             string       `json:"role,omitempty"`
		Content          *string      `json:"content,omitempty"`
		ReasoningContent string       `json:"reasoning_content,omitempty"`
		ToolCalls        []oaToolCall `json:"tool_calls,omitempty"`
	}
	oaMessage struct {
		Role             string       `json:"role"`
		Content          *string      `json:"content"`
		ReasoningContent string       `json:"reasoning_content,omitempty"`
		ToolCalls        []oaToolCall `json:"tool_calls,omitempty"`
	}
	oaToolCall struct {
		Index    *int       `json:"index,omitempty"`
		ID       string     `json:"id,omitempty"`
		Type     string     `json:"type,omitempty"`
		Function oaFunction `json:"function"`
	}
	oaFunction struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	oaUsage struct {
		PromptTokens            int                `json:"prompt_tokens"`
		CompletionTokens        int                `json:"completion_tokens"`
		TotalTokens             int                `json:"total_tokens"`
		CompletionTokensDetails *oaCompletionUsage `json:"completion_tokens_details,omitempty"`
	}
	oaCompletionUsage struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	}
)

// scriptedCreated is the fixed "created" time of every scripted response,
// so that recorded wire transcripts stay stable.
const scriptedCreated = 1_700_000_000

// openAIAnswer renders one turn for one Chat Completions request.
type openAIAnswer struct {
	reply
	// includeUsage is stream_options.include_usage of the request.
	includeUsage bool
	// nextID names a function call the script left without an id.
	nextID func() string
}

// stream writes the turn as SSE chunks: a role chunk, then per scripted
// chunk one content or reasoning_content delta, or tool_calls deltas (id
// and name, then the arguments in pieces, see bigArgs); then a finish chunk, a
// usage chunk when asked for, and [DONE]. A hanging turn stops after the
// scripted chunks and waits for the client to go away.
func (a openAIAnswer) stream(ctx context.Context, w http.ResponseWriter) {
	s := startSSE(w, "\n\n")
	empty := ""
	if !s.send(a.chunk(oaDelta{Role: "assistant", Content: &empty}, nil)) {
		return
	}
	calls := 0
	for _, c := range a.turn.Chunks {
		if !a.pause(ctx) {
			return
		}
		if !a.deltas(c, &calls, func(d oaDelta) bool { return s.queue(a.chunk(d, nil)) }) || !s.flush() {
			return
		}
	}
	if a.turn.Hang {
		<-ctx.Done()
		return
	}
	finish := a.openAIFinish()
	if !s.send(a.chunk(oaDelta{}, &finish)) {
		return
	}
	if a.includeUsage && !s.send(oaCompletion{ID: "chatcmpl-scripted", Object: "chat.completion.chunk", Created: scriptedCreated,
		Model: a.model, Choices: []oaChoice{}, Usage: a.openAIUsage()}) {
		return
	}
	_ = s.data([]byte("[DONE]")) // the client may be gone
}

// unary writes the whole turn as one chat.completion, after the same delays.
func (a openAIAnswer) unary(ctx context.Context, w http.ResponseWriter) {
	if !a.settle(ctx) {
		return
	}
	msg := &oaMessage{Role: "assistant"}
	var text, thought strings.Builder
	for _, c := range a.turn.Chunks {
		text.WriteString(c.Text)
		thought.WriteString(c.Thought)
		if fc := c.FunctionCall; fc != nil {
			msg.ToolCalls = append(msg.ToolCalls, oaToolCall{ID: a.callID(fc), Type: "function",
				Function: oaFunction{Name: fc.Name, Arguments: argsJSON(fc.Args)}})
		}
	}
	if text.Len() > 0 {
		s := text.String()
		msg.Content = &s
	}
	msg.ReasoningContent = thought.String()
	finish := a.openAIFinish()
	writeJSON(w, oaCompletion{ID: "chatcmpl-scripted", Object: "chat.completion", Created: scriptedCreated, Model: a.model,
		Choices: []oaChoice{{Message: msg, FinishReason: &finish}}, Usage: a.openAIUsage()})
}

// chunk wraps one delta in a chat.completion.chunk.
func (a openAIAnswer) chunk(d oaDelta, finish *string) oaCompletion {
	return oaCompletion{ID: "chatcmpl-scripted", Object: "chat.completion.chunk", Created: scriptedCreated, Model: a.model,
		Choices: []oaChoice{{Delta: &d, FinishReason: finish}}}
}

// Tool call arguments over bigArgs bytes are streamed in pieces of at
// most argsPiece bytes, as OpenAI's servers stream a call a few tokens per
// delta; smaller ones come in two pieces, split mid-text.
const (
	bigArgs   = 64 << 10
	argsPiece = 32
)

// deltas renders one scripted chunk as deltas given to emit, and reports
// whether emit took them all; *calls counts the turn's function calls so
// far, which is the tool call's index. A chunk with only a thought
// signature, which this wire has no place for, renders as nothing.
func (a openAIAnswer) deltas(c Chunk, calls *int, emit func(oaDelta) bool) bool {
	switch {
	case c.Text != "":
		return emit(oaDelta{Content: &c.Text})
	case c.Thought != "":
		return emit(oaDelta{ReasoningContent: c.Thought})
	case c.FunctionCall != nil:
		index := *calls
		*calls++
		if !emit(oaDelta{ToolCalls: []oaToolCall{{Index: &index, ID: a.callID(c.FunctionCall), Type: "function",
			Function: oaFunction{Name: c.FunctionCall.Name}}}}) {
			return false
		}
		return argsDeltas(index, argsJSON(c.FunctionCall.Args), emit)
	default:
		return true
	}
}

// argsDeltas gives emit the deltas that stream call index's arguments
// args: two pieces split mid-text, or for arguments over bigArgs pieces of
// at most argsPiece bytes; every piece ends at a rune boundary.
func argsDeltas(index int, args string, emit func(oaDelta) bool) bool {
	piece := func(s string) oaDelta {
		return oaDelta{ToolCalls: []oaToolCall{{Index: &index, Function: oaFunction{Arguments: s}}}}
	}
	if len(args) <= bigArgs {
		mid := len(args) / 2
		for mid > 0 && !utf8.RuneStart(args[mid]) {
			mid--
		}
		return emit(piece(args[:mid])) && emit(piece(args[mid:]))
	}
	for args != "" {
		n := min(argsPiece, len(args))
		for n < len(args) && !utf8.RuneStart(args[n]) {
			n--
		}
		if !emit(piece(args[:n])) {
			return false
		}
		args = args[n:]
	}
	return true
}

// callID is the scripted id of a call, or a fresh one; the OpenAI API
// always names its tool calls.
func (a openAIAnswer) callID(fc *FunctionCall) string {
	if fc.ID != "" {
		return fc.ID
	}
	return a.nextID()
}

// openAIFinish maps the turn's finish reason to the OpenAI names. Gemini
// names map to their counterparts (STOP → stop, MAX_TOKENS → length, the
// safety family → content_filter); OpenAI names pass through; no reason
// means tool_calls when the turn calls a function and stop otherwise.
func (a openAIAnswer) openAIFinish() string {
	r := a.turn.FinishReason
	switch {
	case a.turn.BlockReason != "":
		return "content_filter"
	case r == "":
		for _, c := range a.turn.Chunks {
			if c.FunctionCall != nil {
				return "tool_calls"
			}
		}
		return "stop"
	case r == "STOP":
		return "stop"
	case r == "MAX_TOKENS":
		return "length"
	case strings.Contains(r, "SAFETY") || strings.Contains(r, "RECITATION") || strings.Contains(r, "PROHIBITED") ||
		r == "BLOCKLIST" || r == "SPII":
		return "content_filter"
	default:
		return strings.ToLower(r)
	}
}

// openAIUsage is the turn's token count in the OpenAI shape, where
// completion tokens include the reasoning tokens.
func (a openAIAnswer) openAIUsage() *oaUsage {
	u := a.tokens()
	out := &oaUsage{
		PromptTokens:     u.PromptTokens,
		CompletionTokens: u.OutputTokens + u.ThoughtTokens,
		TotalTokens:      u.total(),
	}
	if u.ThoughtTokens > 0 {
		out.CompletionTokensDetails = &oaCompletionUsage{ReasoningTokens: u.ThoughtTokens}
	}
	return out
}

// argsJSON is a call's arguments as the JSON text the API streams.
func argsJSON(args map[string]any) string {
	if args == nil {
		return "{}"
	}
	data, err := json.Marshal(args)
	if err != nil {
		return "{}" // unreachable for scripts decoded from JSON
	}
	return string(data)
}
