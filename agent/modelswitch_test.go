package agent

import (
	"context"
	"errors"
	"slices"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
)

func TestTrySetModel(t *testing.T) {
	notFound := &model.APIError{Status: 404, Message: "models/m-new is not found"}
	tests := []struct {
		name       string
		model      string
		turns      []agenttest.Turn
		wantErr    bool
		wantModels []string // models of the requests made
		wantAfter  string   // ModelName after the prompt
		wantListed bool     // the model joined Models
		wantRoll   bool     // a ModelChanged back to m1
	}{
		{"unlisted model works", "m-new", nil, false, []string{"m-new"}, "m-new", true, false},
		{"unlisted model fails: rolled back and retried", "m-new", []agenttest.Turn{{Err: notFound}}, false, []string{"m-new", "m1"}, "m1", false, true},
		{"listed model is not on trial", "m2", []agenttest.Turn{{Err: notFound}}, true, []string{"m2"}, "m2", true, false},
		{"bad shape", "no spaces please", nil, true, nil, "m1", false, false},
		{"empty", "", nil, true, nil, "m1", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &agenttest.Model{Turns: tt.turns}
			s, rec := newTestSession(t, m)
			prev, err := s.TrySetModel(tt.model)
			if err != nil {
				if !tt.wantErr || !errors.Is(err, ErrUnknownModel) || tt.wantModels != nil {
					t.Fatalf("TrySetModel = %v", err)
				}
				if s.ModelName() != "m1" {
					t.Errorf("model changed to %q by a refused switch", s.ModelName())
				}
				return
			}
			if prev != "m1" {
				t.Errorf("previous = %q, want m1", prev)
			}
			_, perr := s.Prompt(context.Background(), userText("hi"))
			if (perr != nil) != tt.wantErr {
				t.Fatalf("Prompt err = %v, wantErr %v", perr, tt.wantErr)
			}
			var got []string
			for _, r := range m.Requests() {
				got = append(got, r.Model)
			}
			if !slices.Equal(got, tt.wantModels) {
				t.Errorf("request models = %q, want %q", got, tt.wantModels)
			}
			if s.ModelName() != tt.wantAfter {
				t.Errorf("model after = %q, want %q", s.ModelName(), tt.wantAfter)
			}
			if listed := slices.Contains(s.Models(), tt.model); listed != tt.wantListed {
				t.Errorf("%q listed = %v, want %v", tt.model, listed, tt.wantListed)
			}
			rolled := hasEvent(rec.All(), ModelChanged{Name: "m1", Previous: "m-new", Reason: notFound.Error()})
			if rolled != tt.wantRoll {
				t.Errorf("rollback announced = %v, want %v", rolled, tt.wantRoll)
			}
		})
	}
}

func TestQuotaFallback(t *testing.T) {
	quota := &model.APIError{Status: 429, Message: "Gemini API quota is exhausted (429)."}
	tests := []struct {
		name     string
		fallback string
		turns    []agenttest.Turn
		wantErr  bool
		models   []string // models of the requests made
	}{
		{"switches once", "m-small", []agenttest.Turn{{Err: quota}, {Chunks: []*model.Chunk{agenttest.Text("ok")}}}, false, []string{"m1", "m-small"}},
		{"no fallback configured", "", []agenttest.Turn{{Err: quota}}, true, []string{"m1"}},
		{"fallback also out of quota", "m-small", []agenttest.Turn{{Err: quota}, {Err: quota}}, true, []string{"m1", "m-small"}},
		{"other errors do not switch", "m-small", []agenttest.Turn{{Err: &model.APIError{Status: 500, Message: "boom"}}}, true, []string{"m1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &agenttest.Model{Turns: tt.turns}
			s, rec := newTestSession(t, m, func(o *Options) { o.FallbackModel = tt.fallback })
			_, err := s.Prompt(context.Background(), userText("hi"))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			var got []string
			for _, r := range m.Requests() {
				got = append(got, r.Model)
			}
			if len(got) != len(tt.models) || got[0] != tt.models[0] || got[len(got)-1] != tt.models[len(tt.models)-1] {
				t.Errorf("request models = %q, want %q", got, tt.models)
			}
			switched := false
			for _, ev := range rec.All() {
				if mc, ok := ev.(ModelChanged); ok && mc.Name == "m-small" && mc.Previous == "m1" && mc.Reason != "" {
					switched = true
				}
			}
			if switched != (len(tt.models) > 1) {
				t.Errorf("ModelChanged sent = %v", switched)
			}
		})
	}
}

func TestModelPicker(t *testing.T) {
	offered := []string{"m1", "m2"}
	m := newModelPicker("m1", offered)
	if err := m.set("m3"); !errors.Is(err, ErrUnknownModel) {
		t.Errorf("set(m3) = %v, want ErrUnknownModel", err)
	}
	if prev, final := m.try("m-new"); prev != "m1" || final {
		t.Errorf("try(m-new) = %q, %v; want m1 on trial", prev, final)
	}
	if prev, tried, ok := m.rollback(); !ok || prev != "m1" || tried != "m-new" || m.name() != "m1" {
		t.Errorf("rollback = %q, %q, %v; now %q", prev, tried, ok, m.name())
	}
	m.try("m-new")
	if name, ok := m.confirm(); !ok || name != "m-new" || !slices.Contains(m.list(), "m-new") {
		t.Errorf("confirm = %q, %v; offered %q", name, ok, m.list())
	}
	if _, ok := m.confirm(); ok {
		t.Error("a second confirm ended a trial again")
	}
	if from, ok := m.switchTo("m-small"); !ok || from != "m-new" || m.name() != "m-small" {
		t.Errorf("switchTo = %q, %v; now %q", from, ok, m.name())
	}
	if _, ok := m.switchTo("m-small"); ok {
		t.Error("switching to the current model reported a switch")
	}
	if !slices.Equal(offered, []string{"m1", "m2"}) {
		t.Errorf("the caller's list changed: %q", offered)
	}
}
