package agent

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"

	"companion/agent/model"
	"companion/agent/store"
)

// memJournal keeps records in memory.
type memJournal struct {
	mu    sync.Mutex
	recs  []store.Record
	syncs int
}

func (j *memJournal) Append(recs ...store.Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.recs = append(j.recs, recs...)
	return nil
}
func (j *memJournal) Sync() error           { j.mu.Lock(); j.syncs++; j.mu.Unlock(); return nil }
func (j *memJournal) SetTitle(string) error { return nil }

func (j *memJournal) records() []store.Record {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.recs)
}

func TestRestoreReplaysWhatWasSent(t *testing.T) {
	j := &memJournal{}
	m := &fakeModel{turns: []fakeTurn{
		{chunks: []*model.Chunk{{Parts: []model.Part{{Text: "plan", Thought: true}}}, text("Looking."), call("echo", map[string]any{"text": "hi"})}},
		{chunks: []*model.Chunk{text("Done.")}},
	}}
	s, rec := newTestSession(t, m, func(o *Options) { o.Journal = j })
	if _, err := s.Prompt(context.Background(), userText("first question")); err != nil {
		t.Fatal(err)
	}
	s.SetMode(ModeAutoEdit)
	live := rec.all()

	rec2 := &recorder{seen: make(chan Event, 64)}
	restored, events, err := Restore(Options{ID: "s1", Roots: s.opts.Roots, Model: m, ModelName: "m1",
		Tools: s.opts.Tools, Sink: rec2}, j.records())
	if err != nil {
		t.Fatal(err)
	}
	var replayNoUser []Event
	for _, ev := range events {
		if _, ok := ev.(UserChunk); !ok {
			replayNoUser = append(replayNoUser, ev)
		}
	}
	if !reflect.DeepEqual(replayNoUser, live) {
		t.Errorf("replay differs from live:\nlive   %#v\nreplay %#v", live, replayNoUser)
	}
	if u, ok := events[0].(UserChunk); !ok || u.Text != "first question" {
		t.Errorf("replay starts with %#v, want the user's prompt", events[0])
	}
	if !reflect.DeepEqual(restored.eng.curated(), s.eng.curated()) {
		t.Errorf("history differs after restore")
	}
	if restored.Mode() != ModeAutoEdit {
		t.Errorf("mode = %q", restored.Mode())
	}
	if id := restored.eng.nextCallID(); id != "call_2" {
		t.Errorf("next call id = %q, want call_2", id)
	}
	if j.syncs == 0 {
		t.Error("journal never synced")
	}
}

func TestRestoreSealsInterruptedCalls(t *testing.T) {
	j := &memJournal{}
	m := &fakeModel{turns: []fakeTurn{{chunks: []*model.Chunk{call("echo", map[string]any{"text": "x", "block": true})}}}}
	s, rec := newTestSession(t, m, func(o *Options) { o.Journal = j })
	done := make(chan struct{})
	go func() { s.Prompt(context.Background(), userText("go")); close(done) }()
	for ev := range rec.seen {
		if u, ok := ev.(ToolCallUpdated); ok && u.Text == "waiting" {
			break
		}
	}
	crashed := j.records() // what a kill -9 at this moment leaves behind
	s.Cancel()
	<-done
	_, events, err := Restore(Options{ID: "s1", Roots: s.opts.Roots, Model: m, ModelName: "m1", Tools: s.opts.Tools,
		Sink: &recorder{}}, crashed)
	if err != nil {
		t.Fatal(err)
	}
	last, ok := events[len(events)-1].(ToolCallUpdated)
	if !ok || last.Status != ToolFailed || last.ID != "call_1" {
		t.Fatalf("last replayed event = %#v, want call_1 sealed as failed", events[len(events)-1])
	}
}
