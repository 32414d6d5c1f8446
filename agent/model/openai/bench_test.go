package openai

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/openai/openai-go/v3"

	"companion/agent/model/scripted"
)

// benchChunks is how many chunks one benchmarked response streams.
const benchChunks = 256

// BenchmarkStreamPerChunk streams responses of benchChunks text chunks from
// the scripted OpenAI server through the real openai-go client and the
// provider, and reports the cost of one chunk end to end (server encoding,
// SSE over loopback, openai-go decoding, our mapping).
func BenchmarkStreamPerChunk(b *testing.B) {
	chunks := make([]scripted.Chunk, benchChunks)
	for i := range chunks {
		chunks[i] = scripted.Chunk{Text: "a typical streamed token run "}
	}
	script := &scripted.Script{Turns: []scripted.Turn{{Chunks: chunks, Times: 1 << 30}}}
	p, _ := startScript(b, script, fastRetry())
	req := userRequest("gpt-4.1-mini", "benchmark")
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		n := 0
		for _, err := range p.Stream(ctx, req) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != benchChunks+1 {
			b.Fatalf("got %d chunks, want %d and the final one", n, benchChunks+1)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchChunks), "ns/chunk")
}

// BenchmarkStreamState measures the provider's own per-chunk work: mapping
// one decoded chunk (a content delta with a reasoning field) to a
// model.Chunk.
func BenchmarkStreamState(b *testing.B) {
	var c openai.ChatCompletionChunk
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
