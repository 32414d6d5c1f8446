package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

func newTestSession(t *testing.T, m model.Model, opts ...func(*Options)) (*Session, *agenttest.Recorder[Event]) {
	t.Helper()
	rec := &agenttest.Recorder[Event]{Seen: make(chan Event, 64)}
	o := Options{ID: "s1", Roots: agenttest.Workspace(t), Model: m, ModelName: "m1", Models: []string{"m2"},
		Tools: tools.NewRegistry(agenttest.Echo{}), Sink: rec,
		Now: func() time.Time { return time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC) }}
	for _, f := range opts {
		f(&o)
	}
	s, err := NewSession(o)
	if err != nil {
		t.Fatal(err)
	}
	return s, rec
}

func userText(s string) []model.Part { return []model.Part{{Text: s}} }

func TestPromptStreamsText(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{
		{Parts: []model.Part{{Text: "hmm", Thought: true}}},
		agenttest.Text("Hello "), agenttest.Text("world"),
		{FinishReason: model.FinishStop, Usage: &model.Usage{PromptTokens: 7, OutputTokens: 3}},
	}}}}
	s, rec := newTestSession(t, m)
	reason, err := s.Prompt(context.Background(), userText("Say hello\nplease"))
	if err != nil || reason != EndTurn {
		t.Fatalf("Prompt = %q, %v; want end_turn", reason, err)
	}
	want := []Event{TitleChanged{"Say hello", "2026-11-22T00:00:00Z"}, ThoughtChunk{"hmm"}, MessageChunk{"Hello "},
		MessageChunk{"world"}, UsageUpdated{Used: 10, Size: 1000}}
	if got := rec.All(); !reflect.DeepEqual(got, want) {
		t.Errorf("events = %#v\nwant %#v", got, want)
	}
	req := m.Requests()[0]
	if !strings.Contains(req.System, "Use tabs.") || !strings.Contains(req.System, "AGENTS.md") {
		t.Errorf("system prompt lacks AGENTS.md: %q", req.System)
	}
	if !strings.Contains(req.System, "Sunday, November 22, 2026") {
		t.Errorf("system prompt lacks the date")
	}
	if len(req.Tools) != 3 || req.Tools[0].Name != "echo" || req.Tools[2].Name != "exit_plan_mode" {
		t.Errorf("tools = %+v", req.Tools)
	}
	hist := s.eng.curated()
	if len(hist) != 2 || hist[1].Parts[1].Text != "Hello world" {
		t.Errorf("history = %+v; want user + merged model text", hist)
	}
}

func TestPromptRunsTools(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{
		{Chunks: []*model.Chunk{agenttest.Text("Let me echo."), agenttest.Call("echo", map[string]any{"text": "hi"}),
			agenttest.Call("nope", nil), agenttest.Call("echo", map[string]any{})}},
		{Chunks: []*model.Chunk{agenttest.Text("Done.")}},
	}}
	s, rec := newTestSession(t, m)
	reason, err := s.Prompt(context.Background(), userText("go"))
	if err != nil || reason != EndTurn {
		t.Fatalf("Prompt = %q, %v", reason, err)
	}
	var statuses []string
	for _, ev := range rec.All() {
		switch ev := ev.(type) {
		case ToolCallStarted:
			statuses = append(statuses, ev.ID+":start:"+ev.Title)
		case ToolCallUpdated:
			statuses = append(statuses, ev.ID+":"+string(ev.Status))
		}
	}
	want := []string{"call_1:start:Echo hi", "call_1:in_progress", "call_1:completed",
		"call_2:start:nope", "call_2:failed", "call_3:start:echo", "call_3:failed"}
	// Read-only calls run concurrently: only each call's own order is fixed.
	slices.SortStableFunc(statuses, func(a, b string) int {
		return strings.Compare(strings.SplitN(a, ":", 2)[0], strings.SplitN(b, ":", 2)[0])
	})
	if !slices.Equal(statuses, want) {
		t.Errorf("tool events = %q\nwant %q", statuses, want)
	}
	second := m.Requests()[1].Contents
	last := second[len(second)-1]
	if last.Role != model.RoleUser || len(last.Parts) != 3 {
		t.Fatalf("last content = %+v; want 3 function responses", last)
	}
	if got := framedText(t, m.Requests()[1].System, last.Parts[0].FunctionResponse.Response["output"]); got != "hi" {
		t.Errorf("echo output = %v", got)
	}
	if got, _ := last.Parts[1].FunctionResponse.Response["error"].(string); !strings.Contains(got, `no tool named "nope"`) {
		t.Errorf("unknown tool error = %q", got)
	}
	if got, _ := last.Parts[2].FunctionResponse.Response["error"].(string); !strings.Contains(got, `"text"`) {
		t.Errorf("bad args error = %q", got)
	}
}

func TestPromptStopReasons(t *testing.T) {
	loop := agenttest.Turn{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "again"})}}
	tests := []struct {
		name  string
		turns []agenttest.Turn
		max   int
		want  StopReason
		hist  int // curated history length after the prompt
	}{
		{"safety", []agenttest.Turn{{Chunks: []*model.Chunk{{FinishReason: model.FinishSafety}}}}, 0, Refusal, 0},
		{"max tokens", []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Text("cut"), {FinishReason: model.FinishMaxTokens}}}}, 0, MaxTokens, 2},
		{"request limit", []agenttest.Turn{loop, loop, loop, loop}, 3, MaxTurnRequests, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &agenttest.Model{Turns: tt.turns}
			s, _ := newTestSession(t, m, func(o *Options) { o.MaxRequests = tt.max })
			reason, err := s.Prompt(context.Background(), userText("x"))
			if err != nil || reason != tt.want {
				t.Fatalf("Prompt = %q, %v; want %q", reason, err, tt.want)
			}
			if got := len(s.eng.curated()); got != tt.hist {
				t.Errorf("history length = %d, want %d", got, tt.hist)
			}
		})
	}
}

func TestPromptModelError(t *testing.T) {
	boom := errors.New("Gemini API is unreachable.")
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Text("par")}, Err: boom}}}
	s, _ := newTestSession(t, m)
	if _, err := s.Prompt(context.Background(), userText("x")); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want %v", err, boom)
	}
	// The session is usable again afterwards.
	if reason, err := s.Prompt(context.Background(), userText("y")); err != nil || reason != EndTurn {
		t.Fatalf("second Prompt = %q, %v", reason, err)
	}
}

func TestCancel(t *testing.T) {
	tests := []struct {
		name string
		turn agenttest.Turn
		wait func(Event) bool
	}{
		{"during stream", agenttest.Turn{Chunks: []*model.Chunk{agenttest.Text("part")}, Block: true},
			func(ev Event) bool { _, ok := ev.(MessageChunk); return ok }},
		{"during tool", agenttest.Turn{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "x", "block": true})}},
			func(ev Event) bool { u, ok := ev.(ToolCallUpdated); return ok && u.Text == "waiting" }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &agenttest.Model{Turns: []agenttest.Turn{tt.turn}}
			s, rec := newTestSession(t, m)
			done := make(chan StopReason)
			go func() {
				r, err := s.Prompt(context.Background(), userText("x"))
				if err != nil {
					t.Errorf("Prompt error: %v", err)
				}
				done <- r
			}()
			for ev := range rec.Seen {
				if tt.wait(ev) {
					break
				}
			}
			if _, err := s.Prompt(context.Background(), userText("again")); !errors.Is(err, ErrBusy) {
				t.Errorf("second prompt err = %v, want ErrBusy", err)
			}
			s.Cancel()
			if r := <-done; r != Cancelled {
				t.Fatalf("stop reason = %q, want cancelled", r)
			}
			assertCallsAnswered(t, s.eng.curated())
		})
	}
}

func assertCallsAnswered(t *testing.T, hist []model.Content) {
	t.Helper()
	for i, c := range hist {
		for _, p := range c.Parts {
			if p.FunctionCall == nil {
				continue
			}
			if i+1 >= len(hist) || len(responseIDs(hist[i+1])) == 0 {
				t.Errorf("function call %s has no response in %+v", p.FunctionCall.Name, hist)
			}
		}
	}
}

func TestModesAndClose(t *testing.T) {
	s, _ := newTestSession(t, &agenttest.Model{})
	if err := s.SetMode(ModeYolo); err != nil || s.Mode() != ModeYolo {
		t.Fatalf("SetMode: %v, mode %q", err, s.Mode())
	}
	if err := s.SetMode("nope"); !errors.Is(err, ErrUnknownMode) {
		t.Errorf("SetMode(nope) = %v", err)
	}
	s.Close()
	if _, err := s.Prompt(context.Background(), userText("x")); !errors.Is(err, ErrClosed) {
		t.Errorf("Prompt after Close = %v", err)
	}
}

func TestCurate(t *testing.T) {
	fc := &model.FunctionCall{ID: "a", Name: "echo"}
	tests := []struct {
		name string
		in   []model.Content
		want string
	}{
		{"drops empty", []model.Content{{Role: model.RoleUser, Parts: []model.Part{{Text: "q"}}},
			{Role: model.RoleModel, Parts: []model.Part{{Text: ""}}}}, "user[q]"},
		{"merges roles", []model.Content{{Role: model.RoleUser, Parts: []model.Part{{Text: "a"}}},
			{Role: model.RoleUser, Parts: []model.Part{{Text: "b"}}}}, "user[a b]"},
		{"answers dangling call", []model.Content{{Role: model.RoleUser, Parts: []model.Part{{Text: "q"}}},
			{Role: model.RoleModel, Parts: []model.Part{{FunctionCall: fc}}}}, "user[q] model[call:echo] user[resp:echo]"},
		{"keeps answered call", []model.Content{{Role: model.RoleModel, Parts: []model.Part{{FunctionCall: fc}}},
			{Role: model.RoleUser, Parts: []model.Part{{FunctionResponse: &model.FunctionResponse{ID: "a", Name: "echo"}}}}},
			"model[call:echo] user[resp:echo]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describe(curate(tt.in)); got != tt.want {
				t.Errorf("curate = %s, want %s", got, tt.want)
			}
		})
	}
}

func describe(cs []model.Content) string {
	var out []string
	for _, c := range cs {
		var ps []string
		for _, p := range c.Parts {
			switch {
			case p.FunctionCall != nil:
				ps = append(ps, "call:"+p.FunctionCall.Name)
			case p.FunctionResponse != nil:
				ps = append(ps, "resp:"+p.FunctionResponse.Name)
			default:
				ps = append(ps, p.Text)
			}
		}
		out = append(out, string(c.Role)+"["+strings.Join(ps, " ")+"]")
	}
	return strings.Join(out, " ")
}

func runtimeGosched() { time.Sleep(time.Millisecond) }

// chattyTool writes many small pieces of output quickly.
type chattyTool struct{ agenttest.Echo }

func (chattyTool) Name() string { return "chatty" }
func (chattyTool) Prepare(*tools.Env, json.RawMessage) (tools.Invocation, error) {
	return chattyCall{}, nil
}

type chattyCall struct{}

func (chattyCall) Title() string                                             { return "Chatter" }
func (chattyCall) Locations() []tools.Location                               { return nil }
func (chattyCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

func (chattyCall) Execute(_ context.Context, out tools.Output) (*tools.Result, error) {
	for i := range 1000 {
		out.Write(fmt.Sprintf("line %d\n", i))
	}
	time.Sleep(3 * outputInterval) // the pending output must still be shown
	return &tools.Result{Text: "done"}, nil
}

func TestToolOutputIsThrottled(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Call("chatty", nil)}}}}
	s, rec := newTestSession(t, m, func(o *Options) { o.Tools = tools.NewRegistry(chattyTool{}) })
	s.Prompt(context.Background(), userText("go"))
	var progress []string
	for _, ev := range rec.All() {
		if u, ok := ev.(ToolCallUpdated); ok && u.Status == ToolInProgress && u.Text != "" {
			progress = append(progress, u.Text)
		}
	}
	if len(progress) == 0 || len(progress) > 20 {
		t.Fatalf("%d output updates for 1000 writes; want a few", len(progress))
	}
	if last := progress[len(progress)-1]; !strings.HasSuffix(last, "line 999\n") {
		t.Errorf("the last output update ends %q; the final write was never shown", last[max(0, len(last)-20):])
	}
}
