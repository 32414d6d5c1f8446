package agent

import (
	"context"
	"errors"
	"slices"
	"testing"

	"companion/agent/model"
)

func TestTrySetModel(t *testing.T) {
	notFound := &model.APIError{Status: 404, Message: "models/m-new is not found"}
	tests := []struct {
		name       string
		model      string
		turns      []fakeTurn
		wantErr    bool
		wantModels []string // models of the requests made
		wantAfter  string   // ModelName after the prompt
		wantListed bool     // the model joined Models
		wantRoll   bool     // a ModelChanged back to m1
	}{
		{"unlisted model works", "m-new", nil, false, []string{"m-new"}, "m-new", true, false},
		{"unlisted model fails: rolled back and retried", "m-new", []fakeTurn{{err: notFound}}, false, []string{"m-new", "m1"}, "m1", false, true},
		{"listed model is not on trial", "m2", []fakeTurn{{err: notFound}}, true, []string{"m2"}, "m2", true, false},
		{"bad shape", "no spaces please", nil, true, nil, "m1", false, false},
		{"empty", "", nil, true, nil, "m1", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{turns: tt.turns}
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
			for _, r := range m.requests() {
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
			rolled := hasEvent(rec.all(), ModelChanged{Name: "m1", Previous: "m-new", Reason: notFound.Error()})
			if rolled != tt.wantRoll {
				t.Errorf("rollback announced = %v, want %v", rolled, tt.wantRoll)
			}
		})
	}
}
