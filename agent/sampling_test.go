package agent

import (
	"context"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools/mcp"
)

func TestCutAtStop(t *testing.T) {
	tests := []struct {
		text  string
		stops []string
		want  string
		cut   bool
	}{
		{"Paris END more", []string{"END"}, "Paris ", true},
		{"a STOP b END", []string{"END", "STOP"}, "a ", true},
		{"no stop here", []string{"END"}, "no stop here", false},
		{"empty stops", []string{""}, "empty stops", false},
	}
	for _, tt := range tests {
		if got, cut := cutAtStop(tt.text, tt.stops); got != tt.want || cut != tt.cut {
			t.Errorf("cutAtStop(%q, %q) = %q, %v; want %q, %v", tt.text, tt.stops, got, cut, tt.want, tt.cut)
		}
	}
}

// TestSamplingCard: the card shows the server, the limit, the system
// prompt and every message, quoted.
func TestSamplingCard(t *testing.T) {
	temp := 0.2
	card := samplingCard(mcp.SamplingRequest{Server: "srv", SystemPrompt: "Be brief.", MaxTokens: 30, Temperature: &temp,
		Messages: []mcp.SamplingMessage{{Role: "user", Text: "line one\nline two"}, {Role: "assistant", Text: "ok"}}})
	for _, want := range []string{"MCP server srv", "at most 30 tokens", "temperature 0.2", "System prompt:\n> Be brief.",
		"user:\n> line one\n> line two", "assistant:\n> ok"} {
		if !strings.Contains(card, want) {
			t.Errorf("card lacks %q:\n%s", want, card)
		}
	}
}

// TestRunSamplingPassesLimits: the server's token limit and temperature go
// to the model with its messages, and the answer comes back whole.
func TestRunSamplingPassesLimits(t *testing.T) {
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Text("short answer")}}}}
	s, _ := newTestSession(t, m)
	temp := 0.5
	res, err := s.RunSampling(context.Background(), mcp.SamplingRequest{Server: "srv", SystemPrompt: "Be brief.", MaxTokens: 30,
		Temperature: &temp, Messages: []mcp.SamplingMessage{{Role: "user", Text: "hi"}}})
	if err != nil || res.Text != "short answer" || res.StopReason != "endTurn" {
		t.Fatalf("RunSampling = %+v, %v", res, err)
	}
	req := m.Requests()[0]
	if req.MaxOutputTokens == nil || *req.MaxOutputTokens != 30 || req.Temperature == nil || *req.Temperature != 0.5 || req.System != "Be brief." {
		t.Errorf("the model was asked %+v", req)
	}
}
