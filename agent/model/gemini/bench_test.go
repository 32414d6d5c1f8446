package gemini

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/genai"

	"companion/agent/model/scripted"
)

// benchChunks is how many chunks one benchmarked response streams.
const benchChunks = 256

// BenchmarkStreamPerChunk streams responses of benchChunks text chunks from
// the scripted server through the real genai client and the provider, and
// reports the cost of one chunk end to end (server encoding, SSE over
// loopback, genai decoding, our mapping).
func BenchmarkStreamPerChunk(b *testing.B) {
	chunks := make([]scripted.Chunk, benchChunks)
	for i := range chunks {
		chunks[i] = scripted.Chunk{Text: "a typical streamed token run "}
	}
	script := &scripted.Script{Turns: []scripted.Turn{{Chunks: chunks, Times: 1 << 30}}}
	p, _ := startScript(b, script, fastRetry())
	req := userRequest("gemini-2.5-flash", "benchmark")
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
		if n != benchChunks {
			b.Fatalf("got %d chunks, want %d", n, benchChunks)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchChunks), "ns/chunk")
}

// BenchmarkToChunk measures the provider's own per-chunk work: mapping one
// genai response to a model.Chunk.
func BenchmarkToChunk(b *testing.B) {
	resp := &genai.GenerateContentResponse{Candidates: []*genai.Candidate{{
		Content: &genai.Content{Role: genai.RoleModel, Parts: []*genai.Part{{Text: strings.Repeat("token ", 5)}}},
	}}}
	b.ReportAllocs()
	for b.Loop() {
		if toChunk(resp, newCallID) == nil {
			b.Fatal("nil chunk")
		}
	}
}
