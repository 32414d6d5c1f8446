package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"companion/agent/model"
)

func TestLoopDetection(t *testing.T) {
	same := fakeTurn{chunks: []*model.Chunk{call("echo", map[string]any{"text": "same"})}}
	var repeated []*model.Chunk
	for range 12 {
		repeated = append(repeated, text("I will now check the file again.\n"))
	}
	textLoop := fakeTurn{chunks: repeated}
	done := fakeTurn{chunks: []*model.Chunk{text("Finished differently.")}}
	tests := []struct {
		name  string
		turns []fakeTurn
		want  StopReason
		nudge bool
	}{
		{"calls nudged then recovers", []fakeTurn{same, same, same, same, same, done}, EndTurn, true},
		{"calls loop twice ends", []fakeTurn{same, same, same, same, same, same, same, same, same, same}, MaxTurnRequests, true},
		{"four repeats are fine", []fakeTurn{same, same, same, same, done}, EndTurn, false},
		{"text nudged then recovers", []fakeTurn{textLoop, done}, EndTurn, true},
		{"text loop twice ends", []fakeTurn{textLoop, textLoop}, MaxTurnRequests, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{turns: tt.turns}
			s, _ := newTestSession(t, m)
			r, err := s.Prompt(context.Background(), userText("go"))
			if err != nil || r != tt.want {
				t.Fatalf("Prompt = %q, %v; want %q", r, err, tt.want)
			}
			reqs := m.requests()
			last, _ := json.Marshal(reqs[len(reqs)-1].Contents)
			if got := strings.Contains(string(last), "stuck in a loop"); got != tt.nudge {
				t.Errorf("nudge in last request = %v, want %v", got, tt.nudge)
			}
			assertCallsAnswered(t, s.curated())
		})
	}
}
