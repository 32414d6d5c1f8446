package command

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/agent"
	"companion/internal/testkit/agenttest"
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
		s, rec := newTestSession(t, &agenttest.Model{}, func(o *agent.Options) {
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
			for _, ev := range rec.All() {
				if m, ok := ev.(agent.MessageChunk); ok {
					got = m.Text
				}
			}
			if !strings.Contains(got, answers[name]) {
				t.Errorf("/%s answered %q, want it to say %q", name, got, answers[name])
			}
		}
	}
}

// TestSlashCommands: built-in commands answer without the model, and
// /clear forgets the conversation.
func TestSlashCommands(t *testing.T) {
	m := &agenttest.Model{Turns: agenttest.Replies(agenttest.Call("echo", map[string]any{"text": "x"}), agenttest.Text("ok"))}
	s, rec := newTestSession(t, m)
	s.Prompt(context.Background(), userText("warm up"))
	warm := len(m.Requests())
	for _, tc := range []struct{ in, want string }{
		{"/help", "`/clear`"},
		{"/tools", "`echo`: Echo text back."},
		{"/model", "Model: m1. Available: m1, m2."},
		{"/model m2", "Model switched to m2."},
		{"/model zz", `Unknown model "zz"`},
		{"/bogus", "Unknown command /bogus"},
		{"/stats", "Per tool:\n- echo: 1 call, 1 succeeded"},
	} {
		n := len(rec.All())
		if r, err := s.Prompt(context.Background(), userText(tc.in)); err != nil || r != agent.EndTurn {
			t.Fatalf("%s: %q, %v", tc.in, r, err)
		}
		got := rec.All()[n:]
		if len(got) != 1 || !strings.Contains(got[0].(agent.MessageChunk).Text, tc.want) {
			t.Errorf("%s: events %#v, want text containing %q", tc.in, got, tc.want)
		}
	}
	if n := len(m.Requests()) - warm; n != 0 {
		t.Errorf("slash commands called the model %d times", n)
	}
	if s.ModelName() != "m2" {
		t.Errorf("model = %q after /model m2", s.ModelName())
	}
	prompt(t, s, "hi")
	prompt(t, s, "/clear")
	prompt(t, s, "afresh")
	reqs := m.Requests()
	if got := reqs[len(reqs)-1].Contents; len(got) != 1 || !strings.Contains(lastUserText(reqs[len(reqs)-1]), "afresh") {
		t.Errorf("the request after /clear holds %d contents: %+v", len(got), got)
	}
}

// TestInitCommand: /init refuses when AGENTS.md exists, and otherwise
// asks the model to write one.
func TestInitCommand(t *testing.T) {
	m := &agenttest.Model{Turns: agenttest.Replies(agenttest.Text("writing"))}
	s, rec := newTestSession(t, m)
	// newTestSession writes AGENTS.md: /init refuses to overwrite it.
	s.Prompt(context.Background(), userText("/init"))
	if len(m.Requests()) != 0 || !strings.Contains(rec.All()[0].(agent.MessageChunk).Text, "already exists") {
		t.Fatalf("init with AGENTS.md present: %d requests, events %#v", len(m.Requests()), rec.All())
	}
	os.Remove(filepath.Join(s.Root(), "AGENTS.md"))
	s.Prompt(context.Background(), userText("/init"))
	if reqs := m.Requests(); len(reqs) != 1 || !strings.Contains(lastUserText(reqs[0]), "starter AGENTS.md") {
		t.Errorf("init did not prompt the model: %d requests", len(reqs))
	}
}
