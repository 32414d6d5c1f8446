package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
)

func usage(n int) *model.Chunk { return &model.Chunk{Usage: &model.Usage{PromptTokens: n}} }

func TestCompression(t *testing.T) {
	big := strings.Repeat("context ", 200)
	answer := func(s string, used int) agenttest.Turn {
		return agenttest.Turn{Chunks: []*model.Chunk{agenttest.Text(s), usage(used)}}
	}
	tests := []struct {
		name    string
		summary agenttest.Turn
		want    string // in the first content of the request after compression
		status  string
	}{
		{"summary", agenttest.Turn{Chunks: []*model.Chunk{agenttest.Text("## Goal\nship it")}}, "<state_snapshot>\n## Goal\nship it", "completed"},
		{"failed summary trims", agenttest.Turn{Err: errors.New("quota")}, "earlier turns of this conversation were dropped", "failed"},
		{"inflating summary trims", agenttest.Turn{Chunks: []*model.Chunk{agenttest.Text(strings.Repeat("x", 20000))}}, "were dropped", "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &agenttest.Model{Turns: []agenttest.Turn{
				answer("one", 100), answer("two", 200), answer("three", 300), answer("four", 600),
				tt.summary, answer("five", 100),
			}}
			s, rec := newTestSession(t, m)
			for i, q := range []string{"q1 " + big, "q2 " + big, "q3 " + big, "q4 " + big, "q5"} {
				if r, err := s.Prompt(context.Background(), userText(q)); err != nil || r != EndTurn {
					t.Fatalf("prompt %d = %q, %v", i, r, err)
				}
			}
			reqs := m.Requests()
			last := reqs[len(reqs)-1].Contents
			if first := last[0].Parts[0].Text; !strings.Contains(first, tt.want) {
				t.Errorf("first content after compression = %q", first)
			}
			tail, _ := json.Marshal(last[len(last)-1])
			if !strings.Contains(string(tail), "q5") {
				t.Errorf("newest turn not kept verbatim: %s", tail)
			}
			if sizeOf(last) >= sizeOf(reqs[3].Contents) {
				t.Errorf("request did not shrink: %d >= %d", sizeOf(last), sizeOf(reqs[3].Contents))
			}
			var statuses []string
			for _, ev := range rec.All() {
				if c, ok := ev.(CompactionUpdated); ok {
					statuses = append(statuses, c.Status)
				}
			}
			if strings.Join(statuses, ",") != "in_progress,"+tt.status {
				t.Errorf("compaction events = %q", statuses)
			}
			assertCallsAnswered(t, s.eng.curated())
		})
	}
}

func TestMaskOldOutputs(t *testing.T) {
	huge := strings.Repeat("log line\n", 5000)
	resp := func(out string) model.Content {
		return model.Content{Role: model.RoleUser, Parts: []model.Part{{FunctionResponse: &model.FunctionResponse{Name: "run", Response: map[string]any{"output": out}}}}}
	}
	hist := []model.Content{resp(huge), resp(huge), resp(huge)}
	out := maskOldOutputs(hist)
	if got := out[0].Parts[0].FunctionResponse.Response["output"].(string); len(got) >= len(huge) || !strings.Contains(got, "masked") {
		t.Errorf("oldest output not masked (%d bytes)", len(got))
	}
	if got := out[2].Parts[0].FunctionResponse.Response["output"].(string); got != huge {
		t.Errorf("newest output was masked")
	}
	if hist[0].Parts[0].FunctionResponse.Response["output"].(string) != huge {
		t.Errorf("masking changed the stored history")
	}
}

// countingModel reports no usage but counts tokens on request.
type countingModel struct{ agenttest.Model }

func (m *countingModel) CountTokens(context.Context, *model.Request) (int, error) { return 777, nil }

func TestUsageFromCountTokens(t *testing.T) {
	m := &countingModel{agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Text("hi")}}}}}
	s, rec := newTestSession(t, m)
	s.Prompt(context.Background(), userText("x"))
	if !hasEvent(rec.All(), UsageUpdated{Used: 777, Size: 1000}) {
		t.Errorf("no usage from countTokens: %#v", rec.All())
	}
}
