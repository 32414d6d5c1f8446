package e2e

import (
	"strings"
	"testing"

	"companion/internal/cli"
)

const fastRetries = `{"retry":{"maxAttempts":3,"baseDelayMs":5,"maxDelayMs":20}}`

func TestScriptedModelOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script, settings string
		flags                  cli.Flags
		stop                   string // expected stopReason, or "" for an error
		errText                string // expected in the error message
		text                   string // expected in the agent's message chunks
	}{
		{name: "429 then success", stop: "end_turn", text: "Recovered.",
			script: `{"turns":[{"status":429,"message":"Resource exhausted","retryDelay":"10ms"},{"chunks":[{"text":"Recovered."}]}],"fallback":"error"}`},
		{name: "500 until retries give up", errText: "500",
			script: `{"turns":[{"status":500,"message":"backend exploded","times":10}]}`},
		{name: "400 is not retried", errText: "400",
			script: `{"turns":[{"status":400,"message":"bad request"},{"chunks":[{"text":"should not be reached"}]}]}`},
		{name: "safety block", stop: "refusal",
			script: `{"turns":[{"blockReason":"SAFETY"}]}`},
		{name: "safety finish", stop: "refusal",
			script: `{"turns":[{"chunks":[{"text":"I will not"}],"finishReason":"SAFETY"}]}`},
		{name: "max tokens", stop: "max_tokens", text: "cut off",
			script: `{"turns":[{"chunks":[{"text":"cut off"}],"finishReason":"MAX_TOKENS"}]}`},
		{name: "request limit", stop: "max_turn_requests", flags: cli.Flags{MaxTurnRequests: 3}, text: "Stopped after 3 model requests",
			script: `{"turns":[{"times":10,"chunks":[{"functionCall":{"name":"list_directory","args":{"dir_path":"."}}}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ed := startAgent(t, agentOpts{script: tt.script, settings: fastRetries, flags: tt.flags})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(workspace(t, map[string]string{"a.txt": "a"}))
			m := ed.Wait(ed.Prompt(id, "go"))
			if tt.stop == "" {
				if m.Error == nil || !strings.Contains(m.Error.Message, tt.errText) {
					t.Fatalf("prompt = %s %+v, want an error mentioning %q", m.Result, m.Error, tt.errText)
				}
				if strings.Count(m.Error.Message, ".") > 2 || strings.Contains(m.Error.Message, "\n") {
					t.Errorf("error is not one clear sentence: %q", m.Error.Message)
				}
			} else if got := ed.StopReason(m); got != tt.stop {
				t.Fatalf("stopReason = %q, want %q", got, tt.stop)
			}
			var text string
			for _, u := range ed.Updates(id) {
				if u.Kind == "agent_message_chunk" {
					text += u.Text()
				}
			}
			if !strings.Contains(text, tt.text) {
				t.Errorf("agent text = %q, want it to contain %q", text, tt.text)
			}
			ed.Close()
		})
	}
}
