package e2e

import (
	"strings"
	"testing"

	"companion/internal/cli"
)

// TestOtherProviders runs one tool round trip through the OpenAI-compatible
// provider (against the OpenAI-shaped scripted server) and through the
// text protocol (tool calls written in the model's text).
func TestOtherProviders(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script string
		flags        cli.Flags
	}{
		{"openai", `{"turns":[{"chunks":[{"thought":"Reading."},{"functionCall":{"name":"read_file","args":{"file_path":"a.txt"}}}]},
			{"match":"alpha beta","chunks":[{"text":"It says alpha beta."}]}],"fallback":"error"}`, cli.Flags{Provider: "openai"}},
		{"text protocol", `{"turns":[{"chunks":[{"text":"<think>Need the file.</think>Reading it.\n` + "```tool_call\\n" + `{\"name\": \"read_file\", \"arguments\": {\"file_path\": \"a.txt\"}}\n` + "```" + `"}]},
			{"match":"alpha beta","chunks":[{"text":"It says alpha beta."}]}],"fallback":"error"}`, cli.Flags{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			settings := ""
			if tt.name == "text protocol" {
				settings = `{"textProtocol":true}`
			}
			ed := startAgent(t, agentOpts{script: tt.script, settings: settings, flags: tt.flags})
			ed.Initialize(map[string]any{})
			id := ed.NewSession(workspace(t, map[string]string{"a.txt": "alpha beta\n"}))
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "read a.txt"))); got != "end_turn" {
				t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
			}
			var kinds, text, thought string
			for _, u := range ed.Updates(id) {
				kinds += u.Kind + " "
				switch u.Kind {
				case "agent_message_chunk":
					text += u.Text()
				case "agent_thought_chunk":
					thought += u.Text()
				}
			}
			if !strings.Contains(kinds, "tool_call_update") || !strings.Contains(text, "It says alpha beta.") || thought == "" {
				t.Errorf("updates %s; text %q; thought %q", kinds, text, thought)
			}
			ed.Close()
		})
	}
}
