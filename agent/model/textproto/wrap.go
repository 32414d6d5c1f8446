package textproto

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"iter"

	"companion/agent/model"
)

// wrapped is the decorator Wrap returns.
type wrapped struct {
	inner model.Model
	// newID makes function call ids; tests replace it.
	newID func() string
}

// Wrap returns a model that offers req.Tools to inner through text: inner
// gets no tools, a system prompt describing them and the call format, and
// a history with calls and results written as text; its reply is parsed
// back into text, thought and function call parts with fresh ids. Calls are
// parsed only when the request offers tools; <think> blocks always.
func Wrap(inner model.Model) model.Model {
	return &wrapped{inner: inner, newID: randomID}
}

// ContextWindow implements model.Model.
func (w *wrapped) ContextWindow(name string) int { return w.inner.ContextWindow(name) }

// Stream implements model.Model.
func (w *wrapped) Stream(ctx context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	innerReq := rewriteRequest(req)
	calls := len(req.Tools) > 0
	return func(yield func(*model.Chunk, error) bool) {
		p := newParser(calls, w.newID)
		for ch, err := range w.inner.Stream(ctx, innerReq) {
			if err != nil {
				yield(nil, err)
				return
			}
			if out := p.chunk(ch); out != nil && !yield(out, nil) {
				return
			}
		}
		if parts := p.flush(); len(parts) > 0 {
			yield(&model.Chunk{Parts: parts}, nil)
		}
	}
}

// chunk parses one chunk of the inner model's reply. Text is parsed; other
// parts (the provider's own thoughts, media) pass through. A chunk that
// says the reply finished flushes the parser, so the finish reason comes
// last. It returns nil when there is nothing to pass on.
func (p *parser) chunk(ch *model.Chunk) *model.Chunk {
	var parts []model.Part
	for _, part := range ch.Parts {
		if part.Text != "" && !part.Thought {
			parts = append(parts, p.feed(part.Text)...)
			continue
		}
		parts = append(parts, part)
	}
	if ch.FinishReason != model.FinishNone {
		parts = append(parts, p.flush()...)
	}
	if len(parts) == 0 && ch.FinishReason == model.FinishNone && ch.Usage == nil && ch.FinishMessage == "" {
		return nil
	}
	return &model.Chunk{Parts: parts, FinishReason: ch.FinishReason, FinishMessage: ch.FinishMessage, Usage: ch.Usage}
}

// rewriteRequest returns the request inner gets: no tools, the tools
// described in the system prompt, the history as text.
func rewriteRequest(req *model.Request) *model.Request {
	out := *req
	out.Tools = nil
	if len(req.Tools) > 0 {
		if out.System != "" {
			out.System += "\n\n"
		}
		out.System += toolPrompt(req.Tools)
	}
	out.Contents = rewriteContents(req.Contents)
	return &out
}

// randomID returns a fresh function call id.
func randomID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "call_" + hex.EncodeToString(b[:])
}
