package agent

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

var updateStats = flag.Bool("update-stats", false, "rewrite agent/testdata/stats.golden.txt")

// seqAsker answers each question with the next of its answers.
type seqAsker struct {
	mu      sync.Mutex
	answers []string
}

func (a *seqAsker) Ask(context.Context, Question) (Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.answers) == 0 {
		return Answer{OptionID: RejectOnceID}, nil
	}
	id := a.answers[0]
	a.answers = a.answers[1:]
	return Answer{OptionID: id}, nil
}

// usageChunk ends a model answer with its usage.
func usageChunk(prompt, out, cached int) *model.Chunk {
	return &model.Chunk{FinishReason: model.FinishStop, Usage: &model.Usage{PromptTokens: prompt, OutputTokens: out, CachedTokens: cached}}
}

// TestStatsCounters runs scripted turns and checks the counters: a failed
// request then the prompt again (the retry), calls the user allows, one
// rejected, one an "always" rule allows, and calls the mode allows.
func TestStatsCounters(t *testing.T) {
	edit := func(text string) *model.Chunk {
		return agenttest.Call("fake_edit", map[string]any{"Path": "a.txt", "Text": text})
	}
	tests := []struct {
		name    string
		mode    string
		answers []string
		turns   []agenttest.Turn
		prompts int
		want    Stats
	}{
		{
			name: "retry, user, rejected, rule", mode: ModeDefault,
			answers: []string{ProceedOnce, RejectOnceID, ProceedAlways},
			turns: []agenttest.Turn{
				{Err: errors.New("boom")},
				{Chunks: []*model.Chunk{edit("1"), usageChunk(100, 10, 40)}},
				{Chunks: []*model.Chunk{edit("2"), usageChunk(120, 10, 60)}},
				{Chunks: []*model.Chunk{edit("3"), usageChunk(140, 10, 0)}},
				{Chunks: []*model.Chunk{edit("4"), agenttest.Call("echo", map[string]any{"text": "hi"}), usageChunk(160, 10, 100)}},
				{Chunks: []*model.Chunk{agenttest.Text("done"), usageChunk(180, 5, 0)}},
			},
			prompts: 2,
			want: Stats{Requests: 6, Errors: 1, Tokens: TokenStats{Prompt: 700, Output: 45, Cached: 200, Total: 745},
				CacheHitRatio: 0.286, ToolCalls: 5, ToolSuccess: 4, ToolFailed: 1, SuccessRate: 0.8,
				Decisions: Decisions{Policy: 2, User: 2, Rejected: 1}},
		},
		{
			name: "auto_edit mode", mode: ModeAutoEdit,
			turns: []agenttest.Turn{
				{Chunks: []*model.Chunk{edit("1"), usageChunk(10, 1, 0)}},
				{Chunks: []*model.Chunk{agenttest.Text("done"), usageChunk(20, 1, 0)}},
			},
			prompts: 1,
			want: Stats{Requests: 2, Tokens: TokenStats{Prompt: 30, Output: 2, Total: 32},
				ToolCalls: 1, ToolSuccess: 1, SuccessRate: 1, Decisions: Decisions{Mode: 1}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSession(t, &agenttest.Model{Turns: tt.turns}, func(o *Options) {
				o.Tools = tools.NewRegistry(&editTool{}, agenttest.Echo{})
				o.Mode, o.Asker = tt.mode, &seqAsker{answers: tt.answers}
			})
			for range tt.prompts {
				s.Prompt(context.Background(), userText("go"))
			}
			got := s.Stats()
			got.ModelTimeMs, got.ToolTimeMs, got.Models, got.Tools = 0, 0, nil, nil
			tt.want.Models, tt.want.Tools = nil, nil
			if !statsEqual(got, tt.want) {
				t.Errorf("stats = %+v\nwant    %+v", got, tt.want)
			}
			if m := s.Stats().Models; len(m) != 1 || m[0].Name != "m1" || m[0].Requests != tt.want.Requests || m[0].Errors != tt.want.Errors {
				t.Errorf("models = %+v", m)
			}
		})
	}
}

// statsEqual compares the figures that do not hold slices.
func statsEqual(a, b Stats) bool {
	return a.Requests == b.Requests && a.Errors == b.Errors && a.Tokens == b.Tokens && a.CacheHitRatio == b.CacheHitRatio &&
		a.ToolCalls == b.ToolCalls && a.ToolSuccess == b.ToolSuccess && a.ToolFailed == b.ToolFailed &&
		a.SuccessRate == b.SuccessRate && a.Decisions == b.Decisions
}

// TestAllowedBy: who gets the credit for a call the policy allowed.
func TestAllowedBy(t *testing.T) {
	edit := &tools.Confirmation{Type: tools.ConfirmEdit}
	exec := &tools.Confirmation{Type: tools.ConfirmExec}
	tests := []struct {
		name   string
		mode   string
		conf   *tools.Confirmation
		asked  bool
		wanted string
	}{
		{"no approval needed", ModeDefault, nil, false, decidedPolicy},
		{"hook approved an ask", ModeDefault, exec, true, decidedHook},
		{"auto_edit allows an edit", ModeAutoEdit, edit, false, decidedMode},
		{"auto_edit and a rule for a command", ModeAutoEdit, exec, false, decidedPolicy},
		{"yolo", ModeYolo, exec, false, decidedMode},
		{"a rule in default mode", ModeDefault, edit, false, decidedPolicy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) { o.Mode = tt.mode })
			if got := s.allowedBy(Question{Confirm: tt.conf}, tt.asked); got != tt.wanted {
				t.Errorf("allowedBy = %q, want %q", got, tt.wanted)
			}
		})
	}
}

// TestStatsText: /stats's text for fixed counts, against a golden file.
func TestStatsText(t *testing.T) {
	st := newStats()
	st.addRequest("gemini-2.5-flash", &model.Usage{PromptTokens: 1200, OutputTokens: 80, CachedTokens: 300, ThoughtTokens: 20}, false, 1500*time.Millisecond)
	st.addRequest("gemini-2.5-flash", nil, true, 200*time.Millisecond)
	st.addRequest("gemini-2.5-pro", &model.Usage{PromptTokens: 400, OutputTokens: 30, TotalTokens: 430}, false, 900*time.Millisecond)
	st.addCall("read_file", false, 40*time.Millisecond)
	st.addCall("run_shell_command", true, 1200*time.Millisecond)
	st.addCall("read_file", false, 60*time.Millisecond)
	for _, who := range []string{decidedPolicy, decidedPolicy, decidedUser, decidedReject} {
		st.decisions.add(who)
	}
	s := &Session{stats: st}
	got := StatsText(s.Stats())
	path := filepath.Join("testdata", "stats.golden.txt")
	if *updateStats {
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("/stats =\n%s\nwant\n%s", got, want)
	}
	empty := StatsText((&Session{stats: newStats()}).Stats())
	if want := "Model requests: 0 (0 errors)"; !strings.Contains(empty, want) || !strings.Contains(empty, "No tool calls yet.") {
		t.Errorf("empty /stats = %q", empty)
	}
}

// TestModelTotals: use per model, and a prompt's share of it (models
// without a request in between left out).
func TestModelTotals(t *testing.T) {
	s := &Session{stats: newStats()}
	s.addUsage("m1", &model.Usage{PromptTokens: 10, OutputTokens: 2}, time.Millisecond)
	before := s.ModelTotals()
	s.addUsage("m1", &model.Usage{PromptTokens: 30, OutputTokens: 4, CachedTokens: 5}, time.Millisecond)
	s.addUsage("m2", &model.Usage{PromptTokens: 7, ThoughtTokens: 1}, time.Millisecond)
	s.addUsage("m3", nil, time.Millisecond)
	after := s.ModelTotals()
	if after["m1"].Requests != 2 || after["m1"].Tokens.PromptTokens != 40 {
		t.Errorf("after = %+v", after)
	}
	got := SubModelTotals(after, before)
	if len(got) != 3 || got["m1"].Requests != 1 || got["m1"].Tokens.PromptTokens != 30 || got["m1"].Tokens.CachedTokens != 5 ||
		got["m2"].Tokens.ThoughtTokens != 1 || got["m3"].Requests != 1 {
		t.Errorf("SubModelTotals = %+v", got)
	}
	if got := SubModelTotals(after, after); len(got) != 0 {
		t.Errorf("no requests in between: %+v", got)
	}
}
