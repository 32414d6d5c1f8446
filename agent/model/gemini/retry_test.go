package gemini

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"companion/agent/model"
)

func TestRetryHonoursServerDelay(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, failure string }{
		{"RetryInfo detail", `{"status": 429, "retryDelay": "10ms"}`},
		{"Retry-After header", `{"status": 503, "retryAfter": "0"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// With slowBackoff the test only finishes if the server's delay wins.
			p, srv := startScript(t, parse(t, `{"turns": [`+tt.failure+`, {"chunks": [{"text": "recovered"}]}], "fallback": "error"}`), slowBackoff())
			chunks, err := collect(t, context.Background(), p, userRequest("gemini-2.5-pro", "hi"))
			if err != nil {
				t.Fatal(err)
			}
			if got := text(chunks); got != "recovered" {
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
		{"server error", `{"status": 500, "message": "Internal error encountered.", "times": 10}`, 3, 500,
			"Gemini API failed with a server error (500) after 3 attempts: Internal error encountered."},
		{"rate limit", `{"status": 429, "times": 10}`, 3, 429,
			"Gemini API is rate-limiting requests (429) and did not recover after 3 attempts."},
		{"quota exhausted", `{"status": 429, "retryDelay": "3h", "times": 10}`, 1, 429,
			"Gemini API quota is exhausted (429): it asks to wait 3h0m0s, so try later or check your plan and billing."},
		{"bad request", `{"status": 400, "message": "Invalid JSON payload received.", "times": 10}`, 1, 400,
			"Gemini API rejected the request (400): Invalid JSON payload received."},
		{"key invalid", `{"status": 400, "message": "API key not valid. Please pass a valid API key.", "times": 10}`, 1, 400,
			"Gemini API rejected the API key (400): check GEMINI_API_KEY."},
		{"unknown model", `{"status": 404, "times": 10}`, 1, 404,
			`Gemini API does not know model "gemini-2.5-pro" (404): check the model name and the base URL.`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, srv := startScript(t, parse(t, `{"turns": [`+tt.turn+`], "fallback": "error"}`), fastRetry())
			_, err := collect(t, context.Background(), p, userRequest("gemini-2.5-pro", "hi"))
			ae := apiError(t, err)
			if ae.Status != tt.wantStatus || ae.Attempts != tt.wantRequests {
				t.Errorf("APIError status %d attempts %d, want %d and %d", ae.Status, ae.Attempts, tt.wantStatus, tt.wantRequests)
			}
			if ae.Error() != tt.wantMsg {
				t.Errorf("message:\n got %q\nwant %q", ae.Error(), tt.wantMsg)
			}
			if n := len(srv.Requests()); n != tt.wantRequests {
				t.Errorf("server saw %d requests, want %d", n, tt.wantRequests)
			}
		})
	}
}

func TestWrongAPIKey(t *testing.T) {
	t.Parallel()
	p, srv := startScript(t, parse(t, `{"apiKey": "the-right-key", "turns": []}`), fastRetry())
	_, err := collect(t, context.Background(), p, userRequest("gemini-2.5-pro", "hi"))
	ae := apiError(t, err)
	if want := "Gemini API rejected the API key (403): check GEMINI_API_KEY."; ae.Error() != want || ae.Status != 403 {
		t.Errorf("error = %d %q, want 403 %q", ae.Status, ae.Error(), want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1 (no retry)", n)
	}
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	p, err := New(context.Background(), Config{APIKey: "k", BaseURL: "http://" + addr, Retry: fastRetry()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = collect(t, context.Background(), p, userRequest("gemini-2.5-pro", "hi"))
	ae := apiError(t, err)
	want := "Could not reach the Gemini API at http://" + addr + ": connection refused after 3 attempts."
	if ae.Error() != want || ae.Status != 0 || ae.Attempts != 3 {
		t.Errorf("error = %q (status %d, attempts %d), want %q after 3 attempts", ae.Error(), ae.Status, ae.Attempts, want)
	}
}

func TestCancelDuringHangingStream(t *testing.T) {
	t.Parallel()
	p, srv := startScript(t, parse(t, `{"turns": [{"chunks": [{"text": "partial"}], "hang": true}], "fallback": "error"}`), fastRetry())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		var last error
		for c, err := range p.Stream(ctx, userRequest("gemini-2.5-pro", "hi")) {
			if err != nil {
				last = err
				continue
			}
			if text([]*model.Chunk{c}) == "partial" {
				cancel()
			}
		}
		done <- last
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want one wrapping context.Canceled", err)
		}
	case <-time.After(testDeadline):
		t.Fatal("the stream did not end after its context was cancelled")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The logger cancels as soon as the provider announces a retry, which
	// it does just before waiting an hour.
	log := slog.New(cancelOnRetry{cancel})
	p, srv := startScript(t, parse(t, `{"turns": [{"status": 500, "times": 10}]}`), slowBackoff())
	p.log = log
	_, err := collect(t, ctx, p, userRequest("gemini-2.5-pro", "hi"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want one wrapping context.Canceled", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

func TestStreamBrokenMidResponse(t *testing.T) {
	t.Parallel()
	p, srv := startScript(t, parse(t, `{"turns": [{"chunks": [{"text": "partial"}], "hang": true}], "fallback": "error"}`), fastRetry())
	var got []string
	var final error
	for c, err := range p.Stream(context.Background(), userRequest("gemini-2.5-pro", "hi")) {
		if err != nil {
			final = err
			continue
		}
		got = append(got, text([]*model.Chunk{c}))
		srv.Close() // cut the connection under the open stream
	}
	if len(got) != 1 || got[0] != "partial" {
		t.Errorf("chunks = %q, want just %q (no retry may repeat text)", got, "partial")
	}
	ae := apiError(t, final)
	if !strings.HasPrefix(ae.Error(), "The Gemini API stream broke off mid-response") {
		t.Errorf("error = %q, want a broken-stream message", ae.Error())
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

// cancelOnRetry is a slog handler that cancels a context on the retry log.
type cancelOnRetry struct{ cancel context.CancelFunc }

func (h cancelOnRetry) Enabled(context.Context, slog.Level) bool { return true }
func (h cancelOnRetry) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h cancelOnRetry) WithGroup(string) slog.Handler            { return h }
func (h cancelOnRetry) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "retrying") {
		h.cancel()
	}
	return nil
}

func TestBackoffFullJitter(t *testing.T) {
	t.Parallel()
	r := RetryPolicy{BaseDelay: time.Second, MaxDelay: 30 * time.Second}.withDefaults()
	tests := []struct {
		attempt int
		ceiling time.Duration
	}{{1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {5, 16 * time.Second}, {6, 30 * time.Second}, {80, 30 * time.Second}}
	for _, tt := range tests {
		for range 200 {
			if d := backoff(r, tt.attempt); d < 0 || d > tt.ceiling {
				t.Fatalf("backoff(attempt %d) = %s, outside [0, %s]", tt.attempt, d, tt.ceiling)
			}
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"7", 7 * time.Second, true},
		{"-3", 0, true},
		{"Thu, 02 Jan 2025 03:04:15 GMT", 10 * time.Second, true},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %s %v, want %s %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
