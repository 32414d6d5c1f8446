package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"companion/agent/hooks"
	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

// telRecorder is a Telemetry that writes down what it is told, one line
// per call, with the depth of the step it runs under.
type telRecorder struct {
	mu    sync.Mutex
	lines []string
}

type telDepth struct{}

func (r *telRecorder) add(ctx context.Context, format string, args ...any) context.Context {
	d, _ := ctx.Value(telDepth{}).(int)
	r.mu.Lock()
	r.lines = append(r.lines, strings.Repeat(" ", d)+fmt.Sprintf(format, args...))
	r.mu.Unlock()
	return context.WithValue(ctx, telDepth{}, d+1)
}

func (r *telRecorder) StartTurn(ctx context.Context, t TurnStart) (context.Context, func(TurnEnd)) {
	ctx = r.add(ctx, "turn %q", t.Prompt)
	return ctx, func(e TurnEnd) { r.add(ctx, "turn end %s", e.Stop) }
}

func (r *telRecorder) StartModelRequest(ctx context.Context, name string) (context.Context, func(ModelEnd)) {
	ctx = r.add(ctx, "model %s", name)
	return ctx, func(e ModelEnd) { r.add(ctx, "model end err=%v finish=%s", e.Err != nil, e.Finish) }
}

func (r *telRecorder) StartToolCall(ctx context.Context, c ToolStart) (context.Context, func(ToolEnd)) {
	ctx = r.add(ctx, "tool %s %s", c.Name, c.Args)
	return ctx, func(e ToolEnd) { r.add(ctx, "tool end %s/%s failed=%v", e.Decision, e.DecidedBy, e.Failed) }
}

func (r *telRecorder) StartStep(ctx context.Context, kind, name string) (context.Context, func(error)) {
	ctx = r.add(ctx, "%s %s", kind, name)
	return ctx, func(err error) { r.add(ctx, "%s end err=%v", kind, err != nil) }
}

func (r *telRecorder) Record(ctx context.Context, name string, a map[string]string) {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k+"="+a[k])
	}
	slices.Sort(keys)
	r.add(ctx, "record %s %s", name, strings.Join(keys, " "))
}

func (r *telRecorder) has(t *testing.T, want ...string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range want {
		if !slices.Contains(r.lines, w) {
			t.Errorf("telemetry lacks %q; got:\n%s", w, strings.Join(r.lines, "\n"))
		}
	}
}

// TestTelemetryHooks: a session tells its Telemetry about the turn, its
// model requests, tool calls with the policy's decision, a quota
// fallback and a loop, each nested under the turn.
func TestTelemetryHooks(t *testing.T) {
	quota := &model.APIError{Status: 429, Message: "Gemini API quota is exhausted (429)."}
	same := agenttest.Turn{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "same"})}}
	m := &agenttest.Model{Turns: []agenttest.Turn{{Err: quota}, same, same, same, same, same, {Chunks: []*model.Chunk{agenttest.Text("ok")}}}}
	rec := &telRecorder{}
	s, _ := newTestSession(t, m, func(o *Options) { o.FallbackModel = "m-small"; o.Telemetry = rec; o.Mode = ModeYolo })
	if _, err := s.Prompt(context.Background(), userText("hi")); err != nil {
		t.Fatal(err)
	}
	rec.has(t, `turn "hi"`,
		" model m1", "  model end err=true finish=",
		" record model_fallback from=m1 reason=out of quota: Gemini API quota is exhausted (429). to=m-small",
		" model m-small", "  model end err=false finish=",
		` tool echo {"text":"same"}`, "  tool end approved/mode failed=false",
		"  record permission_answer by=mode decision=approved tool=echo",
		" record loop_detected what=the same tool call with the same arguments, again and again",
		" turn end end_turn")
}

// TestTelemetryMCPCall: an MCP server's tool runs inside an MCP span,
// under its tool call's; a built-in tool has none.
func TestTelemetryMCPCall(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Call("mcp_srv_echo", map[string]any{"text": "x"}), agenttest.Call("echo", map[string]any{"text": "y"})}}}}
	rec := &telRecorder{}
	mcp := &fakeMCP{tools: []tools.Tool{renamed{name: "mcp_srv_echo"}}}
	s, _ := newTestSession(t, m, func(o *Options) { o.MCP = mcp; o.Telemetry = rec; o.Mode = ModeYolo })
	if _, err := s.Prompt(context.Background(), userText("hi")); err != nil {
		t.Fatal(err)
	}
	rec.has(t, ` tool mcp_srv_echo {"text":"x"}`, "  mcp mcp_srv_echo", "   mcp end err=false")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if n := len(slices.DeleteFunc(slices.Clone(rec.lines), func(l string) bool { return !strings.Contains(l, "mcp end") })); n != 1 {
		t.Errorf("%d MCP spans, want 1:\n%s", n, strings.Join(rec.lines, "\n"))
	}
}

// TestTelemetryHookAndCompressionSpans: a hook runs inside a hook span
// under the turn (with the tool's span around the BeforeTool one), and a
// compression, started and finished, is one compression span.
func TestTelemetryHookAndCompressionSpans(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "x"})}}, {Chunks: []*model.Chunk{agenttest.Text("ok")}}}}
	rec := &telRecorder{}
	cfg := hooks.Config{Hooks: map[string][]hooks.Hook{hooks.BeforeTool: {answering(`{}`)}}}
	s, _ := newTestSession(t, m, func(o *Options) {
		o.Telemetry, o.Mode, o.Hooks = rec, ModeYolo, hooks.NewRunner(cfg, hooks.Options{})
	})
	if _, err := s.Prompt(context.Background(), userText("hi")); err != nil {
		t.Fatal(err)
	}
	rec.has(t, ` tool echo {"text":"x"}`, "  hook "+string(hooks.BeforeTool), "   hook end err=false")
	ctx := context.Background()
	s.tel.event(ctx, CompactionUpdated{ID: "c1", Status: "in_progress"})
	s.tel.event(ctx, CompactionUpdated{ID: "c1", Status: "failed", Error: "too big"})
	rec.has(t, "compression compression", " compression end err=true")
}

// TestTelemetrySubagentNests: a subagent's turn, its requests and its
// tool calls sit under the delegate_to_agent call that started them.
func TestTelemetrySubagentNests(t *testing.T) {
	helper := AgentDef{Name: "helper", Description: "Echoes things", Tools: []string{"echo"}, Prompt: "You are the helper."}
	m := &agenttest.Model{Turns: []agenttest.Turn{
		{Chunks: []*model.Chunk{agenttest.Call("delegate_to_agent", map[string]any{"agent": "helper", "task": "echo something"})}},
		{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "from child"})}},
		{Chunks: []*model.Chunk{agenttest.Text("child answer")}},
		{Chunks: []*model.Chunk{agenttest.Text("parent done")}},
	}}
	rec := &telRecorder{}
	s, _ := newTestSession(t, m, func(o *Options) { o.Agents, o.Telemetry, o.Mode = []AgentDef{helper}, rec, ModeYolo })
	if _, err := s.Prompt(context.Background(), userText("delegate")); err != nil {
		t.Fatal(err)
	}
	rec.has(t, ` tool delegate_to_agent {"agent":"helper","task":"echo something"}`, `  turn "echo something"`,
		`   tool echo {"text":"from child"}`, "   turn end end_turn", "  tool end approved/mode failed=false")
}
