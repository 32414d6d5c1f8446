package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"companion/agent/model"
	"companion/agent/store"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

// agenttest.Journal keeps records in memory.
func TestRestoreReplaysWhatWasSent(t *testing.T) {
	j := &agenttest.Journal{}
	m := &agenttest.Model{Turns: []agenttest.Turn{
		{Chunks: []*model.Chunk{{Parts: []model.Part{{Text: "plan", Thought: true}}}, agenttest.Text("Looking."), agenttest.Call("echo", map[string]any{"text": "hi"})}},
		{Chunks: []*model.Chunk{agenttest.Text("Done.")}},
	}}
	s, rec := newTestSession(t, m, func(o *Options) { o.Journal = j })
	if _, err := s.Prompt(context.Background(), userText("first question")); err != nil {
		t.Fatal(err)
	}
	s.SetMode(ModeAutoEdit)
	live := rec.All()

	rec2 := &agenttest.Recorder[Event]{Seen: make(chan Event, 64)}
	restored, events, err := Restore(Options{ID: "s1", Roots: s.opts.Roots, Model: m, ModelName: "m1",
		Tools: s.opts.Tools, Sink: rec2}, j.Records())
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
	if j.Syncs() == 0 {
		t.Error("journal never synced")
	}
}

func TestRestoreSealsInterruptedCalls(t *testing.T) {
	j := &agenttest.Journal{}
	m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{agenttest.Call("echo", map[string]any{"text": "x", "block": true})}}}}
	s, rec := newTestSession(t, m, func(o *Options) { o.Journal = j })
	done := make(chan struct{})
	go func() { s.Prompt(context.Background(), userText("go")); close(done) }()
	for ev := range rec.Seen {
		if u, ok := ev.(ToolCallUpdated); ok && u.Text == "waiting" {
			break
		}
	}
	crashed := j.Records() // what a kill -9 at this moment leaves behind
	s.Cancel()
	<-done
	_, events, err := Restore(Options{ID: "s1", Roots: s.opts.Roots, Model: m, ModelName: "m1", Tools: s.opts.Tools,
		Sink: &agenttest.Recorder[Event]{}}, crashed)
	if err != nil {
		t.Fatal(err)
	}
	last, ok := events[len(events)-1].(ToolCallUpdated)
	if !ok || last.Status != ToolFailed || last.ID != "call_1" {
		t.Fatalf("last replayed event = %#v, want call_1 sealed as failed", events[len(events)-1])
	}
}

// journalRec is a journal record of typ holding data.
func journalRec(t *testing.T, typ string, data any) store.Record {
	t.Helper()
	b, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return store.Record{Type: typ, Time: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC), Data: b}
}

// eventRec is the journal record of ev.
func eventRec(t *testing.T, ev Event) store.Record {
	t.Helper()
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return journalRec(t, recEvent, eventRecord{Kind: eventKind(ev), Event: b})
}

// appendRec is the history record that appends a user turn of text.
func appendRec(t *testing.T, text string) store.Record {
	c := model.Content{Role: model.RoleUser, Parts: []model.Part{{Text: text}}}
	return journalRec(t, recHistory, historyRecord{Op: "append", Content: &c})
}

// The one journal replay: what it reads from each journal, and that
// resuming (Restore), /rewind in place (resetTo) and forking at a prompt
// (PlanRewind) each leave the session in that state.
func TestReplayJournalUsers(t *testing.T) {
	plan := []tools.PlanEntry{{Content: "write it", Priority: "high", Status: "pending"}}
	tests := []struct {
		name    string
		recs    func(t *testing.T) []store.Record
		history []string
		mode    string
		models  []string
		plan    []tools.PlanEntry
		titled  bool
		callSeq int64
		events  int
		open    []string
	}{
		{name: "empty", recs: func(*testing.T) []store.Record { return nil }},
		{
			name: "history, settings, plan, title and calls",
			recs: func(t *testing.T) []store.Record {
				return []store.Record{
					appendRec(t, "one"), appendRec(t, "two"),
					journalRec(t, recSettings, settingsRecord{Mode: ModeAutoEdit, Model: "m2"}),
					eventRec(t, PlanUpdated{Entries: plan}),
					eventRec(t, TitleChanged{Title: "A title"}),
					eventRec(t, ToolCallStarted{ID: "call_3", Title: "echo"}),
					eventRec(t, ToolCallUpdated{ID: "call_3", Status: ToolCompleted}),
					eventRec(t, ToolCallStarted{ID: "call_5", Title: "echo"}),
					eventRec(t, ToolCallUpdated{ID: "call_5", Status: ToolInProgress}),
				}
			},
			history: []string{"one", "two"}, mode: ModeAutoEdit, models: []string{"m2"}, plan: plan,
			titled: true, callSeq: 5, events: 6, open: []string{"call_5"},
		},
		{
			name: "cleared history, unknown mode, mode event, two models, bad records",
			recs: func(t *testing.T) []store.Record {
				return []store.Record{
					appendRec(t, "gone"),
					journalRec(t, recHistory, historyRecord{Op: "clear"}),
					appendRec(t, "kept"), appendRec(t, "cut"),
					journalRec(t, recHistory, historyRecord{Op: "truncate", N: 1}),
					journalRec(t, recSettings, settingsRecord{Mode: ModePlan, Model: "m2"}),
					journalRec(t, recSettings, settingsRecord{Mode: "bogus"}),
					eventRec(t, ModeChanged{ID: ModeYolo}),
					journalRec(t, recSettings, settingsRecord{Model: "m3"}),
					journalRec(t, recEvent, eventRecord{Kind: "no such kind", Event: json.RawMessage(`{}`)}),
					{Type: recHistory, Data: json.RawMessage(`not json`)},
				}
			},
			history: []string{"kept"}, mode: ModeYolo, models: []string{"m2", "m3"}, events: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs := tt.recs(t)
			r := replayJournal(recs, nil)
			if got := userTexts(r.history); !slices.Equal(got, tt.history) {
				t.Errorf("history = %q, want %q", got, tt.history)
			}
			if r.mode != tt.mode || !slices.Equal(r.models, tt.models) || !reflect.DeepEqual(r.plan, tt.plan) ||
				r.titled != tt.titled || r.callSeq != tt.callSeq || len(r.events) != tt.events || !slices.Equal(r.open, tt.open) {
				t.Errorf("replayed = mode %q models %q plan %v titled %v callSeq %d events %d open %q",
					r.mode, r.models, r.plan, r.titled, r.callSeq, len(r.events), r.open)
			}

			t.Run("Restore", func(t *testing.T) { checkRestored(t, recs, r) })
			t.Run("resetTo", func(t *testing.T) {
				s, _ := newTestSession(t, &agenttest.Model{})
				s.eng.appendHistory(contentText("before the rewind"))
				s.todos.set([]tools.PlanEntry{{Content: "old"}})
				s.resetTo(recs)
				if got := userTexts(s.eng.hist.contents); !slices.Equal(got, tt.history) {
					t.Errorf("history = %q, want %q", got, tt.history)
				}
				if s.todos.plan != nil || tt.plan != nil {
					if !reflect.DeepEqual(s.todos.plan, tt.plan) {
						t.Errorf("plan = %v, want %v", s.todos.plan, tt.plan)
					}
				}
			})
			t.Run("PlanRewind", func(t *testing.T) {
				rw, err := PlanRewind(append(recs, journalRec(t, recPrompt, promptRecord{Text: []string{"last"}})), 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				var st settingsRecord
				if len(rw.Kept) > len(recs) {
					last := rw.Kept[len(rw.Kept)-1]
					if err := json.Unmarshal(last.Data, &st); err != nil || last.Type != recSettings {
						t.Fatalf("last kept record %s %s, want settings", last.Type, last.Data)
					}
				}
				if want := (settingsRecord{Mode: tt.mode, Model: r.model()}); st != want {
					t.Errorf("fork settings = %+v, want %+v", st, want)
				}
			})
		})
	}
}

// checkRestored checks that Restore of recs leaves the session as r says.
func checkRestored(t *testing.T, recs []store.Record, r replayed) {
	j := &agenttest.Journal{}
	s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) { o.Journal = j })
	restored, events, err := Restore(s.opts, recs)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := userTexts(restored.eng.hist.contents), userTexts(r.history); !slices.Equal(got, want) {
		t.Errorf("history = %q, want %q", got, want)
	}
	wantMode, wantModel := orDefault(r.mode, ModeDefault), orDefault(r.model(), "m1")
	if restored.Mode() != wantMode || restored.ModelName() != wantModel {
		t.Errorf("mode %q model %q, want %q %q", restored.Mode(), restored.ModelName(), wantMode, wantModel)
	}
	for _, m := range r.models {
		if !slices.Contains(restored.Models(), m) {
			t.Errorf("models %q do not offer %q", restored.Models(), m)
		}
	}
	if !reflect.DeepEqual(restored.todos.plan, r.plan) {
		t.Errorf("plan = %v, want %v", restored.todos.plan, r.plan)
	}
	if restored.titled.Load() != r.titled {
		t.Errorf("titled = %v, want %v", restored.titled.Load(), r.titled)
	}
	if restored.eng.callSeq.Load() != r.callSeq {
		t.Errorf("call numbering at %d, want %d", restored.eng.callSeq.Load(), r.callSeq)
	}
	if len(events) != len(r.events)+len(r.open) {
		t.Fatalf("%d events, want %d and %d seals", len(events), len(r.events), len(r.open))
	}
	for i, id := range r.open {
		u, ok := events[len(r.events)+i].(ToolCallUpdated)
		if !ok || u.ID != id || u.Status != ToolFailed {
			t.Errorf("seal %d = %#v, want call %s failed", i, events[len(r.events)+i], id)
		}
	}
	if len(j.Records()) != len(r.open) {
		t.Errorf("journal got %d records, want the %d seals", len(j.Records()), len(r.open))
	}
}

// orDefault is v, or def when v is "".
func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
