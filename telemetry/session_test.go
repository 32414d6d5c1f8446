package telemetry_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"companion/agent"
	"companion/agent/model"
	"companion/agent/model/gemini"
	"companion/agent/model/scripted"
	"companion/telemetry"
	"companion/tools"
	"companion/tools/builtin"
)

// The secrets the export must not carry without LogPrompts.
const (
	secretPrompt = "PROMPT-SECRET-7731"
	secretArg    = "ARG-SECRET-4410"
)

// sessionScript fails the first request (a retry), then calls read_file
// (the policy allows it) and write_file (the user rejects it), then ends.
const sessionScript = `{"turns":[
 {"status":500,"message":"try again"},
 {"chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"a.txt"}}},
            {"functionCall":{"name":"write_file","args":{"file_path":"b.txt","content":"` + secretArg + `"}}}],
  "usage":{"promptTokens":40,"outputTokens":7,"thoughtTokens":3}},
 {"match":"functionResponse","chunks":[{"text":"Done."}],"usage":{"promptTokens":60,"outputTokens":2}}
],"fallback":"error"}`

// rejecter answers every question "reject once".
type rejecter struct{}

func (rejecter) Ask(context.Context, agent.Question) (agent.Answer, error) {
	return agent.Answer{OptionID: agent.RejectOnceID}, nil
}

// runSession runs the scripted session with telemetry p and shuts p down.
func runSession(t *testing.T, p *telemetry.Provider) {
	t.Helper()
	script, err := scripted.ParseScript([]byte(sessionScript))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := scripted.NewServer(script, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	m, err := gemini.New(t.Context(), gemini.Config{APIKey: "test-key", BaseURL: srv.URL(),
		Retry: model.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	roots, _ := tools.NewRoots(dir)
	reg := tools.NewRegistry(append(builtin.ReadOnly(builtin.ReadOnlyOptions{}), builtin.Editing(builtin.EditOptions{})...)...)
	s, err := agent.NewSession(agent.Options{ID: "sess-1", Roots: roots, Model: m, ModelName: "gemini-test", Tools: reg,
		Sink: agent.SinkFunc(func(context.Context, agent.Event) {}), Asker: rejecter{}, Telemetry: p,
		StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	stop, err := s.Prompt(t.Context(), []model.Part{{Text: "please " + secretPrompt}})
	if err != nil || stop != agent.EndTurn {
		t.Fatalf("prompt: %v, %v", stop, err)
	}
	s.Close()
	if err := p.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Fatal("the rejected write_file ran")
	}
}

func TestTelemetryOTLP(t *testing.T) {
	for _, proto := range []string{"http", "grpc"} {
		t.Run(proto, func(t *testing.T) {
			recv, endpoint := recvHTTP, ""
			if proto == "grpc" {
				recv = recvGRPC
			}
			r, endpoint := recv(t)
			p, err := telemetry.New(t.Context(), telemetry.Options{Target: "local", Endpoint: endpoint, Protocol: proto,
				SessionID: "sess-1", Version: "1.2.3"})
			if err != nil {
				t.Fatal(err)
			}
			p.SessionStarted(t.Context(), telemetry.SessionInfo{Model: "gemini-test", Provider: "gemini"})
			runSession(t, p)
			r.mu.Lock()
			defer r.mu.Unlock()
			checkSpans(t, r.spans)
			checkMetrics(t, metricSums(r))
			checkLogs(t, r)
			checkCatalog(t, r)
			for _, s := range []string{secretPrompt, secretArg, "test-key"} {
				if bytes.Contains(r.raw.Bytes(), []byte(s)) {
					t.Errorf("the export carries %q", s)
				}
			}
		})
	}
}

// spanNode is a span with its children.
type spanNode struct {
	span *tracepb.Span
	kids []*spanNode
}

// tree links the spans by parent; it returns the roots.
func tree(rs []*tracepb.ResourceSpans) []*spanNode {
	byID := map[string]*spanNode{}
	var all []*spanNode
	for _, r := range rs {
		for _, ss := range r.ScopeSpans {
			for _, s := range ss.Spans {
				n := &spanNode{span: s}
				byID[string(s.SpanId)] = n
				all = append(all, n)
			}
		}
	}
	var roots []*spanNode
	for _, n := range all {
		if p, ok := byID[string(n.span.ParentSpanId)]; ok {
			p.kids = append(p.kids, n)
		} else {
			roots = append(roots, n)
		}
	}
	return roots
}

// attr is a span attribute's value as a string ("" when absent).
func attr(kvs []*commonpb.KeyValue, key string) string {
	for _, kv := range kvs {
		if kv.Key == key {
			switch v := kv.Value.Value.(type) {
			case *commonpb.AnyValue_StringValue:
				return v.StringValue
			case *commonpb.AnyValue_IntValue:
				return itoa(v.IntValue)
			case *commonpb.AnyValue_BoolValue:
				if v.BoolValue {
					return "true"
				}
				return "false"
			case *commonpb.AnyValue_DoubleValue:
				return "float"
			}
		}
	}
	return ""
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	neg, b := n < 0, []byte{}
	if neg {
		n = -n
	}
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	if neg {
		b = append([]byte{'-'}, b...)
	}
	return string(b)
}

func checkSpans(t *testing.T, rs []*tracepb.ResourceSpans) {
	t.Helper()
	if len(rs) == 0 {
		t.Fatal("no spans")
	}
	res := rs[0].Resource.Attributes
	for k, want := range map[string]string{"service.name": "companion", "service.version": "1.2.3", "session.id": "sess-1"} {
		if got := attr(res, k); got != want {
			t.Errorf("resource %s = %q, want %q", k, got, want)
		}
	}
	if attr(res, "os.type") == "" {
		t.Error("resource has no os.type")
	}
	roots := tree(rs)
	if len(roots) != 1 || roots[0].span.Name != telemetry.SpanTurn {
		t.Fatalf("want one root %s span, got %d roots", telemetry.SpanTurn, len(roots))
	}
	turn := roots[0]
	if got := attr(turn.span.Attributes, "stop_reason"); got != "end_turn" {
		t.Errorf("turn stop_reason = %q", got)
	}
	// The tool calls sit under the model request that asked for them.
	var models, toolSpans []*tracepb.Span
	for _, k := range turn.kids {
		switch k.span.Name {
		case telemetry.SpanModel:
			models = append(models, k.span)
			for _, kk := range k.kids {
				if kk.span.Name == telemetry.SpanTool {
					toolSpans = append(toolSpans, kk.span)
				}
			}
		case telemetry.SpanTool:
			t.Errorf("tool span %s directly under the turn", attr(k.span.Attributes, "tool.name"))
		}
	}
	if len(models) != 2 {
		t.Fatalf("want 2 model request spans under the turn, got %d", len(models))
	}
	first := models[0]
	if attr(models[1].Attributes, "retries") == "1" {
		first = models[1]
	}
	for k, want := range map[string]string{"gen_ai.request.model": "gemini-test", "retries": "1", "tokens.input": "40",
		"tokens.output": "7", "tokens.thought": "3", "finish_reason": "stop"} {
		if got := attr(first.Attributes, k); got != want {
			t.Errorf("model span %s = %q, want %q", k, got, want)
		}
	}
	want := map[string][3]string{"read_file": {"approved", "policy", "true"}, "write_file": {"denied", "user", "false"}}
	if len(toolSpans) != 2 {
		t.Fatalf("want 2 tool spans under the model requests, got %d", len(toolSpans))
	}
	for _, s := range toolSpans {
		name := attr(s.Attributes, "tool.name")
		got := [3]string{attr(s.Attributes, "decision"), attr(s.Attributes, "decided_by"), attr(s.Attributes, "success")}
		if got != want[name] {
			t.Errorf("tool span %s: decision, by, success = %v, want %v", name, got, want[name])
		}
		if attr(s.Attributes, "tool.args") != "" {
			t.Errorf("tool span %s carries its arguments", name)
		}
	}
}

// checkCatalog: every span, metric and log record exported is one
// Catalog lists (and so one docs/telemetry.md documents).
func checkCatalog(t *testing.T, r *received) {
	t.Helper()
	known := map[string]bool{}
	for _, e := range telemetry.Catalog() {
		known[e.Name] = true
	}
	var names []string
	for _, rs := range r.spans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				names = append(names, s.Name)
			}
		}
	}
	for _, rm := range r.metrics {
		for _, sm := range rm.ScopeMetrics {
			for _, m := range sm.Metrics {
				names = append(names, m.Name)
			}
		}
	}
	for _, rl := range r.logs {
		for _, sl := range rl.ScopeLogs {
			for _, l := range sl.LogRecords {
				names = append(names, l.EventName)
			}
		}
	}
	for _, n := range names {
		if !known[n] {
			t.Errorf("%s was exported but is not in Catalog", n)
		}
	}
}

// TestTelemetryLogPrompts: with LogPrompts the prompt and the tool
// arguments are exported (the control of the test above).
func TestTelemetryLogPrompts(t *testing.T) {
	r, endpoint := recvHTTP(t)
	p, err := telemetry.New(t.Context(), telemetry.Options{Endpoint: endpoint, Protocol: "http", SessionID: "sess-1", LogPrompts: true})
	if err != nil {
		t.Fatal(err)
	}
	runSession(t, p)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range []string{secretPrompt, secretArg} {
		if !bytes.Contains(r.raw.Bytes(), []byte(s)) {
			t.Errorf("with LogPrompts the export lacks %q", s)
		}
	}
}
