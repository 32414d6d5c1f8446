package gemini

import (
	"strings"
	"testing"

	"google.golang.org/genai"

	"companion/agent/model/internal/modeltest"
)

// BenchmarkStreamPerChunk streams text chunks from the scripted server
// through the provider's stream client, and reports the cost of
// one chunk end to end (see modeltest.BenchStream).
func BenchmarkStreamPerChunk(b *testing.B) {
	modeltest.BenchStream(b, start, "gemini-2.5-flash", 0)
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
