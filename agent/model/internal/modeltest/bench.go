package modeltest

import (
	"context"
	"testing"

	"companion/agent/model/scripted"
)

// benchChunks is how many chunks one benchmarked response streams.
const benchChunks = 256

// BenchStream streams responses of benchChunks text chunks from a scripted
// server through the provider start builds (its real client included) and
// reports the cost of one chunk end to end (server encoding, SSE over
// loopback, the client's decoding, the provider's mapping). extra is how
// many chunks the provider yields beyond the scripted ones.
func BenchStream(b *testing.B, start Start, modelName string, extra int) {
	chunks := make([]scripted.Chunk, benchChunks)
	for i := range chunks {
		chunks[i] = scripted.Chunk{Text: "a typical streamed token run "}
	}
	script := &scripted.Script{Turns: []scripted.Turn{{Chunks: chunks, Times: 1 << 30}}}
	p, _ := start(b, script, FastRetry(), nil)
	req := UserRequest(modelName, "benchmark")
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
		if n != benchChunks+extra {
			b.Fatalf("got %d chunks, want %d scripted and %d more", n, benchChunks, extra)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchChunks), "ns/chunk")
}
