package agenttest

import (
	"context"
	"iter"
	"slices"
	"sync"

	"companion/agent/model"
)

// Model is a model.Model that answers each request with the next of its
// Turns (the text "done" when they run out) and records the requests.
type Model struct {
	mu    sync.Mutex
	Turns []Turn
	reqs  []*model.Request
}

// Turn is one model answer: Chunks, then Err (if any). Block makes the
// stream wait for cancellation after its chunks.
type Turn struct {
	Chunks []*model.Chunk
	Err    error
	Block  bool
}

// Replies is one turn a chunk: the answers of a model that says one thing
// a request.
func Replies(chunks ...*model.Chunk) []Turn {
	out := make([]Turn, len(chunks))
	for i, c := range chunks {
		out[i] = Turn{Chunks: []*model.Chunk{c}}
	}
	return out
}

// Stream answers req with the next turn.
func (m *Model) Stream(ctx context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	t := Turn{Chunks: []*model.Chunk{Text("done")}}
	if len(m.Turns) > 0 {
		t, m.Turns = m.Turns[0], m.Turns[1:]
	}
	m.mu.Unlock()
	return func(yield func(*model.Chunk, error) bool) {
		for _, c := range t.Chunks {
			if !yield(c, nil) {
				return
			}
		}
		if t.Block {
			<-ctx.Done()
			yield(nil, ctx.Err())
			return
		}
		if t.Err != nil {
			yield(nil, t.Err)
		}
	}
}

// ContextWindow is 1000 tokens for every model name.
func (m *Model) ContextWindow(string) int { return 1000 }

// Requests are the requests the model has streamed, in order.
func (m *Model) Requests() []*model.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.reqs)
}

// Text is a chunk of answer text.
func Text(s string) *model.Chunk { return &model.Chunk{Parts: []model.Part{{Text: s}}} }

// Call is a chunk calling the tool name with args; its call ID is
// "fc-" + name.
func Call(name string, args map[string]any) *model.Chunk {
	return &model.Chunk{Parts: []model.Part{{FunctionCall: &model.FunctionCall{ID: "fc-" + name, Name: name, Args: args}}}}
}
