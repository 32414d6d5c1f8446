package e2e

import (
	"encoding/json"
	"slices"
	"testing"

	"companion/internal/cli"
)

// TestOpenAIModelPicker: on an OpenAI-compatible server the model picker
// lists the configured model and the server's own (GET /v1/models), never
// Gemini's; a "models" setting still wins.
func TestOpenAIModelPicker(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, settings string
		want           []string
	}{
		{"the server's models", "", []string{"qwen2.5-coder", "llama3", "mistral"}},
		{"the user's list", `{"models":["a","b"]}`, []string{"qwen2.5-coder", "a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ed := startAgent(t, agentOpts{script: `{"turns":[],"models":["mistral","llama3"]}`, settings: tt.settings,
				flags: cli.Flags{Provider: "openai", Model: "qwen2.5-coder"}})
			ed.Initialize(map[string]any{})
			m := ed.Call("session/new", map[string]any{"cwd": workspace(t, nil), "mcpServers": []any{}})
			if m.Error != nil {
				t.Fatalf("session/new: %v", m.Error)
			}
			var r struct {
				ConfigOptions []struct {
					ID      string `json:"id"`
					Options []struct {
						Value string `json:"value"`
					} `json:"options"`
				} `json:"configOptions"`
			}
			if err := json.Unmarshal(m.Result, &r); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range r.ConfigOptions {
				if o.ID == "model" {
					for _, v := range o.Options {
						got = append(got, v.Value)
					}
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("model picker = %v, want %v", got, tt.want)
			}
		})
	}
}
