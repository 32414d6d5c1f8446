package scripted

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// reply is one turn being answered to one request: what both wire shapes
// need to pace the turn and count its tokens.
type reply struct {
	turn        *Turn
	model       string
	promptBytes int
}

// pause waits the turn's delay; false when the client went away.
func (r reply) pause(ctx context.Context) bool {
	if r.turn.DelayMs <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(time.Duration(r.turn.DelayMs) * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// settle waits out the turn's delays before a whole (unary) answer. false
// means that nothing is to be written: the client went away, or the turn
// hangs, which lasts until the client goes away.
func (r reply) settle(ctx context.Context) bool {
	for range r.turn.Chunks {
		if !r.pause(ctx) {
			return false
		}
	}
	if r.turn.Hang {
		<-ctx.Done()
		return false
	}
	return true
}

// tokens is the scripted count, or a rough one (bytes / 4) when none is
// set.
func (r reply) tokens() Usage {
	if s := r.turn.Usage; s != nil {
		return *s
	}
	u := Usage{PromptTokens: r.promptBytes / 4}
	for _, c := range r.turn.Chunks {
		u.OutputTokens += (len(c.Text) + 3) / 4
		u.ThoughtTokens += (len(c.Thought) + 3) / 4
	}
	return u
}

// total is the sum of the counts.
func (u Usage) total() int { return u.PromptTokens + u.OutputTokens + u.ThoughtTokens }

// sse writes server-sent "data:" events, each flushed as it is written.
type sse struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	// end closes each event: "\r\n\r\n" (Gemini) or "\n\n" (OpenAI).
	end string
}

// startSSE writes the headers of an event stream.
func startSSE(w http.ResponseWriter, end string) *sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, rc: http.NewResponseController(w), end: end}
}

// flush sends what was written so far; false when the client is gone.
func (s *sse) flush() bool { return s.rc.Flush() == nil }

// send writes v as the JSON payload of one event and flushes it; false
// when the client is gone.
func (s *sse) send(v any) bool { return s.queue(v) && s.flush() }

// queue writes v as the JSON payload of one event, sent when the response
// buffer fills or at the next flush; false when the client is gone.
func (s *sse) queue(v any) bool {
	data, err := json.Marshal(v)
	return err == nil && s.write(data)
}

// data writes one event with payload as it is and flushes it; false when
// the client is gone.
func (s *sse) data(payload []byte) bool { return s.write(payload) && s.flush() }

// write writes one event with payload, unflushed; false when the client
// is gone.
func (s *sse) write(payload []byte) bool {
	_, err := s.w.Write(append(append([]byte("data: "), payload...), s.end...))
	return err == nil
}

// writeJSON writes v as a 200 JSON response.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v) // the client may be gone; nothing to do then
}
