package agent

import (
	"context"
	"reflect"
	"testing"

	"companion/agent/model"
	"companion/tools"
)

// TestReplayShowsAnswersAndTurnEnds: what the user answered and a turn
// they cancelled are journalled and come back in the replay (live they
// are never sent: the front end knows them).
func TestReplayShowsAnswersAndTurnEnds(t *testing.T) {
	j := &memJournal{}
	et := &editTool{}
	m := &fakeModel{turns: []fakeTurn{editTurn("one"), {chunks: []*model.Chunk{text("Edited.")}}, {chunks: []*model.Chunk{text("part")}, block: true}}}
	s, rec := newTestSession(t, m, func(o *Options) {
		o.Journal, o.Tools, o.Asker = j, tools.NewRegistry(et), &fakeAsker{answer: Answer{OptionID: ProceedOnce}}
	})
	if _, err := s.Prompt(context.Background(), userText("edit")); err != nil {
		t.Fatal(err)
	}
	done := make(chan StopReason)
	go func() { r, _ := s.Prompt(context.Background(), userText("hang")); done <- r }()
	for ev := range rec.seen {
		if c, ok := ev.(MessageChunk); ok && c.Text == "part" {
			break
		}
	}
	s.Cancel()
	if r := <-done; r != Cancelled {
		t.Fatalf("stop = %q, want cancelled", r)
	}
	for _, ev := range rec.all() {
		switch ev.(type) {
		case PermissionAnswered, TurnEnded:
			t.Errorf("%#v was sent live", ev)
		}
	}

	_, events, err := Restore(Options{ID: "s1", Roots: s.opts.Roots, Model: m, ModelName: "m1", Tools: s.opts.Tools, Sink: &recorder{}}, j.records())
	if err != nil {
		t.Fatal(err)
	}
	var answers []PermissionAnswered
	var ends []TurnEnded
	for _, ev := range events {
		switch e := ev.(type) {
		case PermissionAnswered:
			answers = append(answers, e)
		case TurnEnded:
			ends = append(ends, e)
		}
	}
	if len(answers) != 1 || answers[0].CallID != "call_1" || answers[0].OptionID != ProceedOnce || len(answers[0].Options) == 0 || answers[0].Options[0].Label != "Allow this time" {
		t.Errorf("replayed answers = %#v, want call_1 answered %q", answers, ProceedOnce)
	}
	if want := []TurnEnded{{Stop: Cancelled}}; !reflect.DeepEqual(ends, want) {
		t.Errorf("replayed turn ends = %#v, want %#v (the plain end of the first turn is not one)", ends, want)
	}
}

// TestReplayDropsGoneTerminals: a command that ran in an editor terminal
// replays with its output as text, naming no terminal (it is gone).
func TestReplayDropsGoneTerminals(t *testing.T) {
	rec := &recorder{}
	s, _ := newTestSession(t, &fakeModel{}, func(o *Options) { o.Sink = rec })
	s.Replay(context.Background(), []Event{
		ToolCallUpdated{ID: "call_1", Status: ToolInProgress, TerminalID: "term_1"},
		ToolCallUpdated{ID: "call_1", Status: ToolCompleted, TerminalID: "term_1", Text: "hi\n---\nExit code: 0\n"},
	})
	want := []Event{
		ToolCallUpdated{ID: "call_1", Status: ToolInProgress},
		ToolCallUpdated{ID: "call_1", Status: ToolCompleted, Text: "hi\n---\nExit code: 0\n"},
	}
	if got := rec.all(); !reflect.DeepEqual(got, want) {
		t.Errorf("replayed %#v\nwant %#v", got, want)
	}
}
