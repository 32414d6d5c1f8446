package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
)

func TestLoopDetection(t *testing.T) {
	same := agenttest.Turn{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "same"})}}
	var repeated []*model.Chunk
	for range 12 {
		repeated = append(repeated, agenttest.Text("I will now check the file again.\n"))
	}
	textLoop := agenttest.Turn{Chunks: repeated}
	done := agenttest.Turn{Chunks: []*model.Chunk{agenttest.Text("Finished differently.")}}
	tests := []struct {
		name  string
		turns []agenttest.Turn
		want  StopReason
		nudge bool
	}{
		{"calls nudged then recovers", []agenttest.Turn{same, same, same, same, same, done}, EndTurn, true},
		{"calls loop twice ends", []agenttest.Turn{same, same, same, same, same, same, same, same, same, same}, MaxTurnRequests, true},
		{"four repeats are fine", []agenttest.Turn{same, same, same, same, done}, EndTurn, false},
		{"text nudged then recovers", []agenttest.Turn{textLoop, done}, EndTurn, true},
		{"text loop twice ends", []agenttest.Turn{textLoop, textLoop}, MaxTurnRequests, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &agenttest.Model{Turns: tt.turns}
			s, _ := newTestSession(t, m)
			r, err := s.Prompt(context.Background(), userText("go"))
			if err != nil || r != tt.want {
				t.Fatalf("Prompt = %q, %v; want %q", r, err, tt.want)
			}
			reqs := m.Requests()
			last, _ := json.Marshal(reqs[len(reqs)-1].Contents)
			if got := strings.Contains(string(last), "stuck in a loop"); got != tt.nudge {
				t.Errorf("nudge in last request = %v, want %v", got, tt.nudge)
			}
			assertCallsAnswered(t, s.eng.curated())
		})
	}
}

// TestLoopBlockedCallShown checks that a call loop detection does not run
// still shows as a card: started, then failed with OutcomeBlocked and a
// text saying why, between the model's message before it and the one
// after the nudge. The echo tool runs only for the calls before the loop.
func TestLoopBlockedCallShown(t *testing.T) {
	same := agenttest.Turn{Chunks: []*model.Chunk{agenttest.Text("Checking again."), agenttest.Call("echo", map[string]any{"text": "same"})}}
	done := agenttest.Turn{Chunks: []*model.Chunk{agenttest.Text("Trying something else.")}}
	m := &agenttest.Model{Turns: []agenttest.Turn{same, same, same, same, same, done}}
	s, rec := newTestSession(t, m)
	if r, err := s.Prompt(context.Background(), userText("go")); err != nil || r != EndTurn {
		t.Fatalf("Prompt = %q, %v", r, err)
	}
	var trail []string
	ran := 0
	for _, ev := range rec.All() {
		switch ev := ev.(type) {
		case MessageChunk:
			trail = append(trail, "message: "+ev.Text)
		case ToolCallStarted:
			trail = append(trail, "started: "+ev.Title)
		case ToolCallUpdated:
			if ev.Status == ToolCompleted {
				ran++
			}
			if ev.Status == ToolFailed {
				trail = append(trail, "failed: "+ev.Outcome+": "+ev.Text)
			}
		}
	}
	if ran != 4 {
		t.Errorf("echo ran %d times, want 4 (the fifth call is blocked)", ran)
	}
	want := []string{
		"message: Checking again.",
		"started: Echo same",
		"failed: blocked: Blocked as a repeat: the model made this same call again and again, so it was not run.",
		"message: Trying something else.",
	}
	got := trail[len(trail)-len(want):]
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events end with\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
