package openai

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"companion/agent/model"
)

func TestRetryHonoursServerDelay(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, failure string }{
		{"Retry-After header", `{"status": 429, "retryAfter": "0"}`},
		{"retry-after-ms header", `{"status": 503, "retryDelay": "10ms"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// With slowBackoff the test only finishes if the server's delay wins.
			p, srv := startScript(t, parse(t, `{"turns": [`+tt.failure+`, {"chunks": [{"text": "recovered"}]}], "fallback": "error"}`), slowBackoff())
			chunks, err := collect(t, context.Background(), p, userRequest("m", "hi"))
			if err != nil {
				t.Fatal(err)
			}
			if got := text(chunks, false); got != "recovered" {
				t.Errorf("text = %q, want one answer %q", got, "recovered")
			}
			if n := len(srv.Requests()); n != 2 {
				t.Errorf("server saw %d requests, want 2", n)
			}
		})
	}
}

func TestRetryGivesUp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, turn   string
		wantRequests int
		wantStatus   int
		wantMsg      string
	}{
		{"server error", `{"status": 500, "message": "The server had an error.", "times": 10}`, 3, 500,
			"OpenAI-compatible server at URL failed with a server error (500) after 3 attempts: The server had an error."},
		{"rate limit", `{"status": 429, "times": 10}`, 3, 429,
			"OpenAI-compatible server at URL is rate-limiting requests (429) and did not recover after 3 attempts."},
		{"long server delay", `{"status": 429, "retryAfter": "10800", "times": 10}`, 1, 429,
			"OpenAI-compatible server at URL is rate-limiting requests (429) and asks to wait 3h0m0s, so try again later."},
		{"bad request", `{"status": 400, "message": "'messages' must contain the word 'json'.", "times": 10}`, 1, 400,
			"OpenAI-compatible server at URL rejected the request (400): 'messages' must contain the word 'json'."},
		{"forbidden", `{"status": 403, "message": "Country not supported.", "times": 10}`, 1, 403,
			"OpenAI-compatible server at URL denied access (403): Country not supported: check the API key and its permissions."},
		{"unknown model", `{"status": 404, "times": 10}`, 1, 404,
			`OpenAI-compatible server at URL does not know model "gpt-9" (404): check the model name and the base URL (it usually ends in /v1).`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, srv := startScript(t, parse(t, `{"turns": [`+tt.turn+`], "fallback": "error"}`), fastRetry())
			_, err := collect(t, context.Background(), p, userRequest("gpt-9", "hi"))
			ae := apiError(t, err)
			if ae.Status != tt.wantStatus || ae.Attempts != tt.wantRequests {
				t.Errorf("APIError status %d attempts %d, want %d and %d", ae.Status, ae.Attempts, tt.wantStatus, tt.wantRequests)
			}
			if want := strings.ReplaceAll(tt.wantMsg, "URL", srv.URL()); ae.Error() != want {
				t.Errorf("message:\n got %q\nwant %q", ae.Error(), want)
			}
			if n := len(srv.Requests()); n != tt.wantRequests {
				t.Errorf("server saw %d requests, want %d", n, tt.wantRequests)
			}
		})
	}
}

func TestWrongAPIKey(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, want string }{
		{"test-key", "rejected the API key (401): Incorrect API key provided."},
		{"", "requires an API key (401), and none is configured."},
	}
	for _, tt := range tests {
		srv := startRaw(t, nil)
		_ = srv
		p, srv2 := startScript(t, parse(t, `{"apiKey": "the-right-key", "turns": []}`), fastRetry())
		p.cfg.APIKey = tt.key
		if tt.key == "" {
			p2, err := New(context.Background(), Config{BaseURL: srv2.URL(), Retry: fastRetry()})
			if err != nil {
				t.Fatal(err)
			}
			p = p2
		}
		_, err := collect(t, context.Background(), p, userRequest("m", "hi"))
		ae := apiError(t, err)
		if want := "OpenAI-compatible server at " + srv2.URL() + " " + tt.want; ae.Error() != want || ae.Status != 401 {
			t.Errorf("error = %d %q, want 401 %q", ae.Status, ae.Error(), want)
		}
		if n := len(srv2.Requests()); n != 1 {
			t.Errorf("server saw %d requests, want 1 (no retry)", n)
		}
	}
}
