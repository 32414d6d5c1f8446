package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"companion/acp"
	"companion/agent/model"
	"companion/agent/model/gemini"
	"companion/agent/model/scripted"
	"companion/config"
	"companion/host"
	"companion/tools"
	"companion/tools/builtin"
)

// timedModel stamps each chunk as the provider hands it to the agent.
type timedModel struct {
	inner model.Model
	mu    sync.Mutex
	in    []time.Time
}

func (m *timedModel) Stream(ctx context.Context, req *model.Request) iter.Seq2[*model.Chunk, error] {
	return func(yield func(*model.Chunk, error) bool) {
		for c, err := range m.inner.Stream(ctx, req) {
			if err == nil && len(c.Parts) > 0 {
				m.mu.Lock()
				m.in = append(m.in, time.Now())
				m.mu.Unlock()
			}
			if !yield(c, err) {
				return
			}
		}
	}
}

func (m *timedModel) ContextWindow(name string) int { return m.inner.ContextWindow(name) }

// BenchmarkChunkOverhead measures the time from a model chunk reaching the
// agent to its session/update being read off the wire, through the real
// genai client against the scripted model. One op is one prompt of
// chunksPerPrompt chunks; p50 and p99 are per chunk.
func BenchmarkChunkOverhead(b *testing.B) {
	const chunksPerPrompt = 500
	var chunks []string
	for i := range chunksPerPrompt {
		chunks = append(chunks, fmt.Sprintf(`{"text":"word%d "}`, i))
	}
	srv, err := scripted.NewServer(mustScript(b, `{"turns":[{"times":1000000,"chunks":[`+strings.Join(chunks, ",")+`]}]}`), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	prov, err := gemini.New(context.Background(), gemini.Config{APIKey: "bench", BaseURL: srv.URL()})
	if err != nil {
		b.Fatal(err)
	}
	tm := &timedModel{inner: prov}
	c := startInProcess(b, tm)
	id := c.newSession(b)
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		tm.mu.Lock()
		tm.in = tm.in[:0]
		tm.mu.Unlock()
		out := c.prompt(b, id)
		tm.mu.Lock()
		if len(out) != len(tm.in) {
			b.Fatalf("%d chunks in, %d updates out", len(tm.in), len(out))
		}
		for i := range out {
			lat = append(lat, out[i].Sub(tm.in[i]))
		}
		tm.mu.Unlock()
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1e3, "µs-p50/chunk")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds())/1e3, "µs-p99/chunk")
}

func mustScript(b testing.TB, s string) *scripted.Script {
	sc, err := scripted.ParseScript([]byte(s))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

// wire is a minimal in-process ACP client for benchmarks.
type wire struct {
	w     io.Writer
	sc    *bufio.Scanner
	id    int
	close func()
}

func startInProcess(b *testing.B, m model.Model) *wire {
	return startWithState(b, m, b.TempDir())
}

// startWithState is startInProcess with sessions stored under stateDir.
// The connection closes when the benchmark ends or close is called.
func startWithState(b *testing.B, m model.Model, stateDir string) *wire {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	srv := acp.NewServer(acp.Options{Options: host.Options{Name: "companion", Version: "bench",
		Config: config.Config{Script: "bench", Model: "bench-model", StateDir: stateDir},
		Model:  func(context.Context, config.Config) (model.Model, error) { return m, nil },
		Tools: func(config.Config) *tools.Registry {
			return tools.NewRegistry(builtin.ReadOnly(builtin.ReadOnlyOptions{})...)
		},
	}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Serve(ctx, inR, outW); close(done) }()
	stop := sync.OnceFunc(func() { inW.Close(); cancel(); <-done })
	b.Cleanup(stop)
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	c := &wire{w: inW, sc: sc, close: stop}
	c.call(b, "initialize", `{"protocolVersion":1}`)
	return c
}

// call sends a request and returns its result, skipping notifications.
func (c *wire) call(b *testing.B, method, params string) json.RawMessage {
	c.send(b, method, params)
	for c.sc.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		json.Unmarshal(c.sc.Bytes(), &m)
		if m.ID != nil && *m.ID == c.id {
			return m.Result
		}
	}
	b.Fatalf("%s: connection ended", method)
	return nil
}

func (c *wire) send(b *testing.B, method, params string) {
	c.id++
	if _, err := fmt.Fprintf(c.w, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", c.id, method, params); err != nil {
		b.Fatal(err)
	}
}

func (c *wire) newSession(b *testing.B) string {
	var r struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(c.call(b, "session/new", fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, b.TempDir())), &r)
	return r.SessionID
}

// prompt sends a prompt and returns when each message chunk was read.
func (c *wire) prompt(b *testing.B, id string) []time.Time {
	c.send(b, "session/prompt", fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":"go"}]}`, id))
	var out []time.Time
	want := fmt.Sprintf(`"id":%d,`, c.id)
	for c.sc.Scan() {
		line := c.sc.Bytes()
		if strings.Contains(string(line), `"agent_message_chunk"`) {
			out = append(out, time.Now())
			continue
		}
		if strings.Contains(string(line), want) {
			return out
		}
	}
	b.Fatal("connection ended during prompt")
	return nil
}

// countUntilAnswer sends a request and counts the session/update lines
// before its answer.
func (c *wire) countUntilAnswer(b *testing.B, method, params string) int {
	c.send(b, method, params)
	want := fmt.Sprintf(`"id":%d,`, c.id)
	n := 0
	for c.sc.Scan() {
		line := c.sc.Bytes()
		if strings.Contains(string(line), `"session/update"`) {
			n++
			continue
		}
		if strings.Contains(string(line), want) {
			if strings.Contains(string(line), `"error"`) {
				b.Fatalf("%s failed: %s", method, line)
			}
			return n
		}
	}
	b.Fatal("connection ended")
	return 0
}

// cwd returns the working directory session id was stored with.
func (c *wire) cwd(b *testing.B, id string) string {
	var r struct {
		Sessions []struct {
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
		} `json:"sessions"`
	}
	json.Unmarshal(c.call(b, "session/list", `{}`), &r)
	for _, s := range r.Sessions {
		if s.SessionID == id {
			return s.Cwd
		}
	}
	b.Fatalf("session %s not listed", id)
	return ""
}
