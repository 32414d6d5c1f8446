package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"companion/agent"
	"companion/agent/model"
	"companion/tools"
	"companion/tools/builtin"
)

// chattyModel streams n short chunks per answer, with usage.
type chattyModel struct{ n int }

func (m chattyModel) Stream(context.Context, *model.Request) iter.Seq2[*model.Chunk, error] {
	return func(yield func(*model.Chunk, error) bool) {
		for i := range m.n {
			if !yield(&model.Chunk{Parts: []model.Part{{Text: fmt.Sprintf("word %d of a long answer ", i)}}}, nil) {
				return
			}
		}
		yield(&model.Chunk{Usage: &model.Usage{PromptTokens: 100, OutputTokens: m.n}}, nil)
	}
}

func (chattyModel) ContextWindow(string) int { return 1 << 20 }

// BenchmarkSessionLoad10k stores a session of 10,000 events, then measures
// session/load in a new connection: from the request to its answer, which
// comes after the last replayed update.
func BenchmarkSessionLoad10k(b *testing.B) {
	state := b.TempDir()
	c := startWithState(b, chattyModel{n: 2500}, state)
	id := c.newSession(b)
	for range 4 {
		c.prompt(b, id)
	}
	c.close()
	var best, total time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		w := startWithState(b, chattyModel{n: 1}, state)
		b.StartTimer()
		start := time.Now()
		updates := w.countUntilAnswer(b, "session/load", fmt.Sprintf(`{"sessionId":%q,"cwd":%q,"mcpServers":[]}`, id, w.cwd(b, id)))
		d := time.Since(start)
		b.StopTimer()
		if updates < 10000 {
			b.Fatalf("replayed %d updates, want at least 10,000", updates)
		}
		total += d
		if best == 0 || d < best {
			best = d
		}
		w.close()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms-per-load")
}

// BenchmarkLongSession runs 1,000 prompts in one in-process session with
// a small window, reporting the largest request and the heap in use at
// turn 100 and turn 1,000.
func BenchmarkLongSession(b *testing.B) {
	for range b.N {
		m := &sizingModel{window: 50000}
		roots, _ := tools.NewRoots(b.TempDir())
		s, err := agent.NewSession(agent.Options{ID: "bench", Roots: roots, Model: m, ModelName: "m",
			Tools: tools.NewRegistry(builtin.ReadOnly(builtin.ReadOnlyOptions{})...), Sink: agent.SinkFunc(func(context.Context, agent.Event) {})})
		if err != nil {
			b.Fatal(err)
		}
		var at100 uint64
		for i := range 1000 {
			if _, err := s.Prompt(context.Background(), []model.Part{{Text: fmt.Sprintf("question %d %s", i, strings.Repeat("x", 400))}}); err != nil {
				b.Fatal(err)
			}
			if i == 99 {
				at100 = heapInUse()
			}
		}
		b.ReportMetric(float64(m.max), "max-request-tokens")
		b.ReportMetric(float64(m.window), "window-tokens")
		b.ReportMetric(float64(at100)/(1<<20), "heap-MiB-turn-100")
		b.ReportMetric(float64(heapInUse())/(1<<20), "heap-MiB-turn-1000")
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// sizingModel reports usage as the request's size (bytes / 4).
type sizingModel struct {
	window, max int
}

func (m *sizingModel) Stream(_ context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	n := len(req.System)
	for _, c := range req.Contents {
		for _, p := range c.Parts {
			n += len(p.Text)
		}
	}
	tokens := n / 4
	m.max = max(m.max, tokens)
	return func(yield func(*model.Chunk, error) bool) {
		yield(&model.Chunk{Parts: []model.Part{{Text: "## Goal\nanswer " + strings.Repeat("words ", 50)}},
			Usage: &model.Usage{PromptTokens: tokens}}, nil)
	}
}

func (m *sizingModel) ContextWindow(string) int { return m.window }

// BenchmarkSessionNewWithMCP measures session/new with three stdio MCP
// servers configured: they start in the background, so the answer does
// not wait for them.
func BenchmarkSessionNewWithMCP(b *testing.B) {
	c := startInProcess(b, chattyModel{n: 1})
	ws := b.TempDir()
	servers := `[{"name":"a","command":"/bin/cat","args":[],"env":[]},{"name":"b","command":"/bin/cat","args":[],"env":[]},{"name":"c","command":"/bin/cat","args":[],"env":[]}]`
	var times []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		var r struct {
			SessionID string `json:"sessionId"`
		}
		json.Unmarshal(c.call(b, "session/new", fmt.Sprintf(`{"cwd":%q,"mcpServers":%s}`, ws, servers)), &r)
		times = append(times, time.Since(start))
		b.StopTimer()
		c.call(b, "session/close", fmt.Sprintf(`{"sessionId":%q}`, r.SessionID))
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1e3, "ms-median-session-new")
}
