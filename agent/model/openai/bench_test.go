package openai

import (
	"encoding/json"
	"log/slog"
	"testing"

	"companion/agent/model/internal/modeltest"
)

// BenchmarkStreamPerChunk streams text chunks from the scripted OpenAI
// server through the provider's own client and SSE reader, and reports
// the cost of one chunk end to end (see modeltest.BenchStream). Each
// response ends in one more chunk, with the finish reason and usage.
func BenchmarkStreamPerChunk(b *testing.B) {
	modeltest.BenchStream(b, start, "gpt-4.1-mini", 1)
}

// BenchmarkStreamState measures the provider's own per-chunk work: mapping
// one decoded chunk (a content delta with a reasoning field) to a
// model.Chunk.
func BenchmarkStreamState(b *testing.B) {
	var c chunk
	raw := `{"id":"x","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"token token ","reasoning_content":null},"finish_reason":null}]}`
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		b.Fatal(err)
	}
	st := newStreamState(newCallID, slog.New(slog.DiscardHandler))
	b.ReportAllocs()
	for b.Loop() {
		if st.add(&c) == nil {
			b.Fatal("nil chunk")
		}
	}
}
