package scripted

import (
	"context"
	"encoding/json"
	"net/http"
)

// Wire shapes of the Gemini REST API, as much of them as genai reads.
type (
	wireResponse struct {
		Candidates     []wireCandidate `json:"candidates,omitempty"`
		PromptFeedback *wireFeedback   `json:"promptFeedback,omitempty"`
		UsageMetadata  *wireUsage      `json:"usageMetadata,omitempty"`
		ModelVersion   string          `json:"modelVersion,omitempty"`
	}
	wireCandidate struct {
		Content           *wireContent   `json:"content,omitempty"`
		FinishReason      string         `json:"finishReason,omitempty"`
		Index             int            `json:"index"`
		GroundingMetadata *wireGrounding `json:"groundingMetadata,omitempty"`
	}
	wireGrounding struct {
		WebSearchQueries  []string      `json:"webSearchQueries,omitempty"`
		GroundingChunks   []wireChunk   `json:"groundingChunks,omitempty"`
		GroundingSupports []wireSupport `json:"groundingSupports,omitempty"`
	}
	wireChunk struct {
		Web Source `json:"web"`
	}
	wireSupport struct {
		Segment               wireSegment `json:"segment"`
		GroundingChunkIndices []int       `json:"groundingChunkIndices"`
	}
	wireSegment struct {
		StartIndex int `json:"startIndex,omitempty"`
		EndIndex   int `json:"endIndex,omitempty"`
	}
	wireContent struct {
		Role  string     `json:"role"`
		Parts []wirePart `json:"parts"`
	}
	wirePart struct {
		Text             string        `json:"text,omitempty"`
		Thought          bool          `json:"thought,omitempty"`
		ThoughtSignature []byte        `json:"thoughtSignature,omitempty"`
		FunctionCall     *FunctionCall `json:"functionCall,omitempty"`
	}
	wireFeedback struct {
		BlockReason string `json:"blockReason"`
	}
	wireUsage struct {
		PromptTokenCount     int `json:"promptTokenCount"`
		CandidatesTokenCount int `json:"candidatesTokenCount"`
		ThoughtsTokenCount   int `json:"thoughtsTokenCount,omitempty"`
		TotalTokenCount      int `json:"totalTokenCount"`
	}
)

// answer renders one turn for one request in the Gemini shape.
type answer struct {
	reply
}

// stream writes the turn as SSE events, one chunk per event, the finish
// reason and usage on the last; a hanging turn then waits for the client.
func (a answer) stream(ctx context.Context, w http.ResponseWriter) {
	s := startSSE(w, "\r\n\r\n")
	if !s.flush() { // headers now, even before a delayed first chunk
		return
	}
	for i, ev := range a.events() {
		if i < len(a.turn.Chunks) && !a.pause(ctx) {
			return
		}
		if !s.send(ev) {
			return
		}
	}
	if a.turn.Hang {
		<-ctx.Done()
	}
}

// unary writes the whole turn as one response, after the same delays.
func (a answer) unary(ctx context.Context, w http.ResponseWriter) {
	if !a.settle(ctx) {
		return
	}
	resp := a.final()
	if a.turn.BlockReason == "" {
		resp.Candidates = []wireCandidate{{Content: &wireContent{Role: "model", Parts: mergeParts(a.turn.Chunks)}, FinishReason: a.finishReason(),
			GroundingMetadata: a.grounding()}}
	}
	writeJSON(w, resp)
}

// events are the SSE payloads of the turn.
func (a answer) events() []wireResponse {
	t := a.turn
	if t.BlockReason != "" {
		return []wireResponse{a.final()}
	}
	out := make([]wireResponse, 0, max(len(t.Chunks), 1))
	for _, c := range t.Chunks {
		content := &wireContent{Role: "model", Parts: []wirePart{toWire(c)}}
		out = append(out, wireResponse{Candidates: []wireCandidate{{Content: content}}, ModelVersion: a.model})
	}
	if t.Hang {
		return out
	}
	last := a.final()
	if len(out) > 0 {
		last.Candidates = out[len(out)-1].Candidates
		out = out[:len(out)-1]
	} else {
		last.Candidates = []wireCandidate{{}}
	}
	last.Candidates[0].FinishReason = a.finishReason()
	last.Candidates[0].GroundingMetadata = a.grounding()
	return append(out, last)
}

// grounding is the turn's grounding in the Gemini shape, or nil.
func (a answer) grounding() *wireGrounding {
	g := a.turn.Grounding
	if g == nil {
		return nil
	}
	w := &wireGrounding{WebSearchQueries: g.Queries}
	for _, s := range g.Sources {
		w.GroundingChunks = append(w.GroundingChunks, wireChunk{Web: s})
	}
	for _, s := range g.Supports {
		w.GroundingSupports = append(w.GroundingSupports, wireSupport{Segment: wireSegment{StartIndex: s.Start, EndIndex: s.End}, GroundingChunkIndices: s.Sources})
	}
	return w
}

// final is the closing response: usage, and the block reason if any.
func (a answer) final() wireResponse {
	resp := wireResponse{UsageMetadata: a.usage(), ModelVersion: a.model}
	if a.turn.BlockReason != "" {
		resp.PromptFeedback = &wireFeedback{BlockReason: a.turn.BlockReason}
	}
	return resp
}

func (a answer) finishReason() string {
	if a.turn.FinishReason == "" {
		return "STOP"
	}
	return a.turn.FinishReason
}

// usage is the turn's token count in the Gemini shape.
func (a answer) usage() *wireUsage {
	u := a.tokens()
	return &wireUsage{
		PromptTokenCount:     u.PromptTokens,
		CandidatesTokenCount: u.OutputTokens,
		ThoughtsTokenCount:   u.ThoughtTokens,
		TotalTokenCount:      u.total(),
	}
}

// toWire renders one chunk as a part.
func toWire(c Chunk) wirePart {
	p := wirePart{Text: c.Text, FunctionCall: c.FunctionCall}
	if c.Thought != "" {
		p.Text, p.Thought = c.Thought, true
	}
	if c.ThoughtSignature != "" {
		p.ThoughtSignature = []byte(c.ThoughtSignature)
	}
	return p
}

// mergeParts joins adjacent plain text (or thought) chunks into one part.
func mergeParts(chunks []Chunk) []wirePart {
	parts := make([]wirePart, 0, len(chunks))
	for _, c := range chunks {
		p := toWire(c)
		if n := len(parts); n > 0 && p.FunctionCall == nil && p.ThoughtSignature == nil &&
			parts[n-1].FunctionCall == nil && parts[n-1].ThoughtSignature == nil && parts[n-1].Thought == p.Thought {
			parts[n-1].Text += p.Text
			continue
		}
		parts = append(parts, p)
	}
	return parts
}

// writeError writes t's HTTP error in the google.rpc.Status shape.
func writeError(w http.ResponseWriter, t *Turn) {
	msg := t.Message
	if msg == "" {
		msg = http.StatusText(t.Status)
	}
	body := map[string]any{"code": t.Status, "message": msg, "status": rpcStatus(t.Status)}
	if t.RetryDelay != "" {
		body["details"] = []any{map[string]any{
			"@type":      "type.googleapis.com/google.rpc.RetryInfo",
			"retryDelay": t.RetryDelay,
		}}
	}
	if t.RetryAfter != "" {
		w.Header().Set("Retry-After", t.RetryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(t.Status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": body}) // the client may be gone
}

// rpcStatus is the google.rpc.Code name Google APIs pair with an HTTP status.
func rpcStatus(status int) string {
	switch status {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 409:
		return "ABORTED"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 499:
		return "CANCELLED"
	case 500:
		return "INTERNAL"
	case 501:
		return "UNIMPLEMENTED"
	case 503:
		return "UNAVAILABLE"
	case 504:
		return "DEADLINE_EXCEEDED"
	default:
		return "UNKNOWN"
	}
}
