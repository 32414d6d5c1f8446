package gemini

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/agent/model/scripted"
)

func TestSearch(t *testing.T) {
	// "Zürich" has a two-byte ü: offsets are bytes, as the API sends them.
	answer := "Zürich is in Switzerland. It has 400k people."
	grounding := &scripted.Grounding{
		Queries: []string{"zurich population"},
		Sources: []scripted.Source{{Title: "wiki", URI: "https://example.org/zh"}, {Title: "stats", URI: "https://example.org/stats"}},
		Supports: []scripted.Support{{Start: 0, End: 26, Sources: []int{0}}, {Start: 27, End: len(answer), Sources: []int{0, 1}},
			{Start: 5, End: 999, Sources: []int{1}}}, // past the end: dropped
	}
	tests := []struct {
		name    string
		turn    scripted.Turn
		want    *model.SearchAnswer
		wantErr string
	}{
		{"grounded", scripted.Turn{Chunks: []scripted.Chunk{{Text: answer}}, Grounding: grounding}, &model.SearchAnswer{
			Text: answer, Queries: []string{"zurich population"},
			Sources:  []model.SearchSource{{Title: "wiki", URI: "https://example.org/zh"}, {Title: "stats", URI: "https://example.org/stats"}},
			Supports: []model.SearchSupport{{Start: 0, End: 26, Sources: []int{0}}, {Start: 27, End: len(answer), Sources: []int{0, 1}}},
		}, ""},
		{"ungrounded", scripted.Turn{Chunks: []scripted.Chunk{{Text: "Just text."}}}, &model.SearchAnswer{Text: "Just text."}, ""},
		{"blocked", scripted.Turn{BlockReason: "SAFETY"}, nil, "The search was blocked (SAFETY)."},
		{"empty", scripted.Turn{Chunks: []scripted.Chunk{{Thought: "hmm"}}}, nil, "The search returned no answer."},
		{"quota", scripted.Turn{Status: 429, Message: "Quota exceeded.", Times: 5}, nil, "rate-limiting requests (429)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, srv := start(t, &scripted.Script{Turns: []scripted.Turn{tt.turn}, Fallback: scripted.FallbackError},
				model.RetryPolicy{MaxAttempts: 1}, nil)
			got, err := m.(model.Searcher).Search(context.Background(), "", "how big is zurich")
			if tt.wantErr != "" {
				var api *model.APIError
				if !errors.As(err, &api) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want an APIError saying %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("answer = %+v\nwant     %+v", got, tt.want)
			}
			body := string(srv.Requests()[0].Raw)
			if !strings.Contains(body, `"googleSearch":{}`) || !strings.Contains(body, "how big is zurich") {
				t.Errorf("request lacks the grounding tool or the query: %s", body)
			}
		})
	}
}
