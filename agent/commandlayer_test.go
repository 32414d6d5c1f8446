package agent

import (
	"context"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
)

// fakeCommands is a command layer with one command of each kind: /answer
// is answered without the model, /expand stands for a prompt.
type fakeCommands struct {
	s    *Session
	seen []string
}

func (f *fakeCommands) List() []Command { return []Command{{Name: "answer"}, {Name: "expand"}} }

func (f *fakeCommands) Run(_ context.Context, text string) ([]model.Part, string) {
	f.seen = append(f.seen, text)
	if text == "/expand" {
		return []model.Part{{Text: "the expanded prompt"}}, ""
	}
	return nil, "answered " + text + " for " + f.s.ID()
}

// TestSlashPromptsGoToTheCommandLayer: with Options.Commands, a prompt
// that starts with a slash goes to the command layer, which either
// answers it (no model request) or gives the prompt to send instead; the
// layer is built with its session and lists the commands. Without one,
// such a prompt goes to the model as it is.
func TestSlashPromptsGoToTheCommandLayer(t *testing.T) {
	m := &agenttest.Model{}
	var layer *fakeCommands
	s, rec := newTestSession(t, m, func(o *Options) {
		o.Commands = func(s *Session, opts Options) CommandLayer {
			layer = &fakeCommands{s: s}
			return layer
		}
	})
	if got := s.Commands(); len(got) != 2 || got[1].Name != "expand" {
		t.Errorf("Commands() = %v", got)
	}
	mustPrompt(t, s, "/answer now")
	if got := rec.All(); len(m.Requests()) != 0 || len(got) != 1 || got[0].(MessageChunk).Text != "answered /answer now for s1" {
		t.Errorf("/answer: %d requests, events %#v", len(m.Requests()), got)
	}
	mustPrompt(t, s, "/expand")
	if reqs := m.Requests(); len(reqs) != 1 || !strings.Contains(lastUserText(reqs[0]), "the expanded prompt") || strings.Contains(lastUserText(reqs[0]), "/expand") {
		t.Errorf("/expand: %d requests, the model read %q", len(reqs), lastUserText(reqs[len(reqs)-1]))
	}
	if strings.Join(layer.seen, "|") != "/answer now|/expand" {
		t.Errorf("the layer saw %q", layer.seen)
	}

	bare, _ := newTestSession(t, m)
	mustPrompt(t, bare, "/answer")
	if reqs := m.Requests(); len(reqs) != 2 || !strings.Contains(lastUserText(reqs[1]), "/answer") || bare.Commands() != nil {
		t.Errorf("without a command layer: %d requests, commands %v", len(reqs), bare.Commands())
	}
}
