package agent

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// The built-in command table is both the command list and the dispatch:
// each listed command runs its own function, /accept-settings is listed
// only when the host can accept settings, and unknown names are refused.
func TestBuiltinCommandTable(t *testing.T) {
	answers := map[string]string{
		"help":            "Commands:\n- `/help`: Show the commands and tools companion offers",
		"tools":           "Tools:\n- `echo`",
		"clear":           "Conversation cleared.",
		"compress":        "Nothing to compress",
		"model":           "Model: m1. Available: m1, m2.",
		"mode":            "Mode: default. Available: default, auto_edit, yolo, plan.",
		"stats":           "Session stats",
		"mcp":             "No MCP servers are configured.",
		"memory":          "Use tabs.",
		"undo":            "Checkpoints are off, so there is nothing to undo.",
		"restore":         "Checkpoints are off.",
		"rewind":          "This session is not saved, so it cannot be rewound.",
		"status":          "Status:\n- Model: m1",
		"skills":          "No skills",
		"accept-settings": "accepted them",
		"no-such-command": "Unknown command /no-such-command. Type /help for the list.",
		"init extra":      "Unknown command /init.",
	}
	for _, accept := range []bool{false, true} {
		s, rec := newTestSession(t, &fakeModel{}, func(o *Options) {
			if accept {
				o.AcceptSettings = func() (string, error) { return "accepted them", nil }
			}
		})
		var listed []string
		for _, c := range s.Commands() {
			listed = append(listed, c.Name)
		}
		var want []string
		for _, b := range builtinTable() {
			if b.Name != "accept-settings" || accept {
				want = append(want, b.Name)
			}
		}
		if !slices.Equal(listed, want) {
			t.Errorf("accept %v: commands %q, want %q", accept, listed, want)
		}
		for _, name := range append(listed, "no-such-command", "init extra") {
			if name == "init" {
				continue // a prompt to the model, not an answer
			}
			if _, err := s.Prompt(context.Background(), userText("/"+name)); err != nil {
				t.Fatal(err)
			}
			var got string
			for _, ev := range rec.all() {
				if m, ok := ev.(MessageChunk); ok {
					got = m.Text
				}
			}
			if !strings.Contains(got, answers[name]) {
				t.Errorf("/%s answered %q, want it to say %q", name, got, answers[name])
			}
		}
	}
}
