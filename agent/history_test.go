package agent

import (
	"encoding/json"
	"log/slog"
	"reflect"
	"testing"
	"time"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
)

// TestHistoryJournalReplay: every change the history makes is journalled,
// and applying the journal to an empty history rebuilds it.
func TestHistoryJournalReplay(t *testing.T) {
	j := &agenttest.Journal{}
	h := &history{journal: &journalWriter{j: j, log: slog.New(slog.DiscardHandler), now: time.Now}}
	msg := func(role model.Role, text string) model.Content {
		return model.Content{Role: role, Parts: []model.Part{{Text: text}}}
	}
	h.add(msg(model.RoleUser, "one"))
	mark := h.add(msg(model.RoleModel, "two"))
	h.add(msg(model.RoleUser, "three"))
	h.truncate(mark)
	h.replace([]model.Content{msg(model.RoleUser, "summary")}, []model.Content{msg(model.RoleModel, "kept")})
	h.add(msg(model.RoleUser, "four"))
	want := h.curated()

	replayed := &history{}
	for _, r := range j.Records() {
		var hr historyRecord
		if r.Type != recHistory || json.Unmarshal(r.Data, &hr) != nil {
			t.Fatalf("unexpected record %+v", r)
		}
		replayed.apply(hr)
	}
	if got := replayed.curated(); !reflect.DeepEqual(got, want) {
		t.Errorf("replayed history = %s, want %s", describe(got), describe(want))
	}
	h.clear()
	if len(h.curated()) != 0 {
		t.Error("clear left turns behind")
	}
}

func TestHistoryFull(t *testing.T) {
	tests := []struct {
		name         string
		used, window int
		at           float64
		want         bool
	}{
		{"before any request", 0, 0, 0.5, false},
		{"under", 400, 1000, 0.5, false},
		{"at", 500, 1000, 0.5, true},
		{"never", 900, 1000, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &history{}
			h.setUse(tt.used, tt.window)
			if got := h.full(tt.at); got != tt.want {
				t.Errorf("full(%v) = %v, want %v", tt.at, got, tt.want)
			}
		})
	}
}
