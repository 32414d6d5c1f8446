package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"companion/agent/checkpoint"
	"companion/agent/model"
	"companion/agent/store"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

// diskEditTool writes its Text to Path under the root: a change the
// checkpoint step saves before.
type diskEditTool struct{}

func (diskEditTool) Name() string            { return "disk_edit" }
func (diskEditTool) Description() string     { return "Write a file." }
func (diskEditTool) Kind() tools.Kind        { return tools.KindEdit }
func (diskEditTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (diskEditTool) Prepare(env *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	var p struct{ Path, Text string }
	if err := json.Unmarshal(args, &p); err != nil {
		return nil, err
	}
	return &diskEdit{path: filepath.Join(env.Roots.Primary(), p.Path), text: p.Text}, nil
}

type diskEdit struct{ path, text string }

func (c *diskEdit) Title() string               { return "Write " + c.path }
func (c *diskEdit) Locations() []tools.Location { return []tools.Location{{Path: c.path}} }
func (c *diskEdit) Confirmation(context.Context) (*tools.Confirmation, error) {
	return &tools.Confirmation{Type: tools.ConfirmEdit, Path: c.path, NewText: c.text}, nil
}
func (c *diskEdit) Execute(context.Context, tools.Output) (*tools.Result, error) {
	if err := os.WriteFile(c.path, []byte(c.text), 0o644); err != nil {
		return nil, err
	}
	return &tools.Result{Text: "wrote " + c.path}, nil
}

// editTurns are the model's answers to one prompt that writes text to a.txt.
func editTurns(text string) []agenttest.Turn {
	return []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Call("disk_edit", map[string]any{"Path": "a.txt", "Text": text})}},
		{Chunks: []*model.Chunk{{Parts: []model.Part{{Text: "Wrote " + text + "."}}}}}}
}

// rewindSession is a yolo session with a journal, a forker and file
// checkpoints, whose a.txt holds "v0".
func rewindSession(t *testing.T, turns []agenttest.Turn) (*Session, *agenttest.Journal, *agenttest.Forker) {
	t.Helper()
	j := &agenttest.Journal{}
	f := &agenttest.Forker{J: j}
	s, _ := newTestSession(t, &agenttest.Model{Turns: turns}, func(o *Options) {
		cps, err := checkpoint.Open(t.TempDir(), o.Roots.Primary(), nil, checkpoint.WithoutGit())
		if err != nil {
			t.Fatal(err)
		}
		o.Tools, o.Mode, o.Journal, o.Forks, o.Checkpoints = tools.NewRegistry(diskEditTool{}), ModeYolo, j, f, cps
		o.Now = time.Now
	})
	writeA(t, s, "v0")
	return s, j, f
}

func writeA(t *testing.T, s *Session, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(s.Root(), "a.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustPrompt(t *testing.T, s *Session, text string) {
	t.Helper()
	if _, err := s.Prompt(context.Background(), userText(text)); err != nil {
		t.Fatalf("Prompt(%q): %v", text, err)
	}
}

// userTexts are the user turns' texts of a history.
func userTexts(cs []model.Content) []string {
	var out []string
	for _, c := range cs {
		for _, p := range c.Parts {
			if c.Role == model.RoleUser && p.Text != "" {
				out = append(out, p.Text)
			}
		}
	}
	return out
}

// replayedUser are the user chunks of a replay.
func replayedUser(events []Event) []string {
	var out []string
	for _, ev := range events {
		if u, ok := ev.(UserChunk); ok {
			out = append(out, u.Text)
		}
	}
	return out
}

func TestPlanRewindForksBeforeAPrompt(t *testing.T) {
	s, j, _ := rewindSession(t, append(editTurns("v1"), editTurns("v2")...))
	mustPrompt(t, s, "first edit")
	mustPrompt(t, s, "second edit")
	if err := s.SetModel("m2"); err != nil {
		t.Fatal(err)
	}
	before := j.Records()
	r, err := PlanRewind(before, 1, s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Prompt.Index != 1 || strings.Join(r.Prompt.Text, "") != "second edit" || r.Checkpoint == "" {
		t.Errorf("plan = %+v, want prompt 1 with a checkpoint", r)
	}
	fork, events, err := Restore(Options{ID: "fork", Roots: s.opts.Roots, Model: &agenttest.Model{}, ModelName: "m1",
		Models: []string{"m2"}, Tools: s.opts.Tools, Sink: &agenttest.Recorder[Event]{}}, r.Kept)
	if err != nil {
		t.Fatal(err)
	}
	if got := replayedUser(events); len(got) != 1 || fork.ModelName() != "m2" || fork.Mode() != ModeYolo {
		t.Errorf("fork replays %q with model %s mode %s; want one prompt, m2, yolo", got, fork.ModelName(), fork.Mode())
	}
	if got := len(j.Records()); got != len(before) {
		t.Errorf("planning wrote to the original journal: %d records, was %d", got, len(before))
	}
	if len(Prompts(j.Records())) != 2 {
		t.Error("the original lost prompts")
	}
	r0, err := PlanRewind(before, 0, nil)
	if err != nil || r0.Checkpoint == "" || r0.Checkpoint == r.Checkpoint {
		t.Errorf("rewind to 0: checkpoint %q (prompt 1's %q), %v; want an older one", r0.Checkpoint, r.Checkpoint, err)
	}
	if _, err := PlanRewind(before, 2, nil); !errors.Is(err, ErrNoPrompt) {
		t.Errorf("PlanRewind(2) = %v, want ErrNoPrompt", err)
	}
}

func TestPromptsOfLogs(t *testing.T) {
	ev := func(kind string, e any) store.Record {
		raw, _ := json.Marshal(e)
		data, _ := json.Marshal(eventRecord{Kind: kind, Event: raw})
		return store.Record{Type: recEvent, Data: data}
	}
	rec := func(typ string, v any) store.Record {
		data, _ := json.Marshal(v)
		return store.Record{Type: typ, Data: data}
	}
	hist := rec(recHistory, historyRecord{Op: "append", Content: &model.Content{Role: model.RoleUser}})
	tests := []struct {
		name string
		recs []store.Record
		want []string
	}{
		{"prompt records", []store.Record{rec(recPrompt, promptRecord{Text: []string{"a"}}), ev("user", UserChunk{Text: "a"}),
			rec(recPrompt, promptRecord{}), rec(recPrompt, promptRecord{Text: []string{"c"}})}, []string{"a", "", "c"}},
		{"a log before prompt records: runs of user chunks", []store.Record{ev("user", UserChunk{Text: "a"}), ev("user", UserChunk{Text: "b"}),
			hist, ev("message", MessageChunk{"x"}), ev("user", UserChunk{Text: "c"})}, []string{"ab", "c"}},
		{"old prompts then new ones", []store.Record{ev("user", UserChunk{Text: "a"}), hist,
			rec(recPrompt, promptRecord{Text: []string{"b"}}), ev("user", UserChunk{Text: "b"})}, []string{"a", "b"}},
		{"a rewind cuts back", []store.Record{rec(recPrompt, promptRecord{Text: []string{"a"}}), rec(recPrompt, promptRecord{Text: []string{"b"}}),
			rec(recPrompt, promptRecord{Text: []string{"/rewind 1"}}), rec(recRewind, rewindRecord{Prompt: 1}),
			rec(recPrompt, promptRecord{Text: []string{"c"}})}, []string{"a", "c"}},
		{"a rewind out of range is ignored", []store.Record{rec(recPrompt, promptRecord{Text: []string{"a"}}),
			rec(recRewind, rewindRecord{Prompt: 4})}, []string{"a"}},
	}
	for _, tt := range tests {
		var got []string
		for i, p := range Prompts(tt.recs) {
			if p.Index != i {
				t.Errorf("%s: prompt %d has index %d", tt.name, i, p.Index)
			}
			got = append(got, strings.Join(p.Text, ""))
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("%s: prompts %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestReplayedPromptsHaveTheirOwnMessageID: two prompts in a row replay
// as two user messages (different ids), a prompt's chunks as one, so an
// editor that counts user messages counts as the agent does.
func TestReplayedPromptsHaveTheirOwnMessageID(t *testing.T) {
	s, j, _ := rewindSession(t, append(editTurns("v1"), editTurns("v2")...))
	mustPrompt(t, s, "first edit")
	mustPrompt(t, s, "second edit")
	_, events, err := Restore(Options{ID: "s1", Roots: s.opts.Roots, Model: &agenttest.Model{}, ModelName: "m1",
		Tools: s.opts.Tools, Sink: &agenttest.Recorder[Event]{}}, j.Records())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, ev := range events {
		if u, ok := ev.(UserChunk); ok {
			ids = append(ids, u.MessageID)
		}
	}
	if len(ids) != 2 || ids[0] == "" || ids[0] == ids[1] {
		t.Errorf("replayed user message ids = %q, want two different ones", ids)
	}
}
