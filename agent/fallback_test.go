package agent

import (
	"context"
	"testing"

	"companion/agent/model"
)

func TestQuotaFallback(t *testing.T) {
	quota := &model.APIError{Status: 429, Message: "Gemini API quota is exhausted (429)."}
	tests := []struct {
		name     string
		fallback string
		turns    []fakeTurn
		wantErr  bool
		models   []string // models of the requests made
	}{
		{"switches once", "m-small", []fakeTurn{{err: quota}, {chunks: []*model.Chunk{text("ok")}}}, false, []string{"m1", "m-small"}},
		{"no fallback configured", "", []fakeTurn{{err: quota}}, true, []string{"m1"}},
		{"fallback also out of quota", "m-small", []fakeTurn{{err: quota}, {err: quota}}, true, []string{"m1", "m-small"}},
		{"other errors do not switch", "m-small", []fakeTurn{{err: &model.APIError{Status: 500, Message: "boom"}}}, true, []string{"m1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{turns: tt.turns}
			s, rec := newTestSession(t, m, func(o *Options) { o.FallbackModel = tt.fallback })
			_, err := s.Prompt(context.Background(), userText("hi"))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			var got []string
			for _, r := range m.requests() {
				got = append(got, r.Model)
			}
			if len(got) != len(tt.models) || got[0] != tt.models[0] || got[len(got)-1] != tt.models[len(tt.models)-1] {
				t.Errorf("request models = %q, want %q", got, tt.models)
			}
			switched := false
			for _, ev := range rec.all() {
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
