package openai

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"companion/agent/model/scripted"
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
			"OpenAI-compatible server at {base} failed with a server error (500) after 3 attempts: The server had an error."},
		{"rate limit", `{"status": 429, "times": 10}`, 3, 429,
			"OpenAI-compatible server at {base} is rate-limiting requests (429) and did not recover after 3 attempts."},
		{"long server delay", `{"status": 429, "retryAfter": "10800", "times": 10}`, 1, 429,
			"OpenAI-compatible server at {base} is rate-limiting requests (429) and asks to wait 3h0m0s, so try again later."},
		{"bad request", `{"status": 400, "message": "'messages' must contain the word 'json'.", "times": 10}`, 1, 400,
			"OpenAI-compatible server at {base} rejected the request (400): 'messages' must contain the word 'json'."},
		{"forbidden", `{"status": 403, "message": "Country not supported.", "times": 10}`, 1, 403,
			"OpenAI-compatible server at {base} denied access (403): Country not supported: check the API key and its permissions."},
		{"unknown model", `{"status": 404, "times": 10}`, 1, 404,
			`OpenAI-compatible server at {base} does not know model "gpt-9" (404): check the model name and the base URL (it usually ends in /v1).`},
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
			if want := strings.ReplaceAll(tt.wantMsg, "{base}", srv.URL()); ae.Error() != want {
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
		{"wrong-key", "rejected the API key (401): Incorrect API key provided."},
		{"", "requires an API key (401), and none is configured."},
	}
	for _, tt := range tests {
		srv, err := scripted.NewOpenAIServer(parse(t, `{"apiKey": "the-right-key", "turns": []}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		p, err := New(context.Background(), Config{APIKey: tt.key, BaseURL: srv.URL(), Retry: fastRetry()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = collect(t, context.Background(), p, userRequest("m", "hi"))
		ae := apiError(t, err)
		if want := "OpenAI-compatible server at " + srv.URL() + " " + tt.want; ae.Error() != want || ae.Status != 401 {
			t.Errorf("key %q: error = %d %q, want 401 %q", tt.key, ae.Status, ae.Error(), want)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("key %q: server saw %d requests, want 1 (no retry)", tt.key, n)
		}
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
	p, err := New(context.Background(), Config{BaseURL: "http://" + addr + "/v1", Retry: fastRetry()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = collect(t, context.Background(), p, userRequest("m", "hi"))
	ae := apiError(t, err)
	want := "Could not reach the OpenAI-compatible server at http://" + addr + "/v1: connection refused after 3 attempts (is the server running?)."
	if ae.Error() != want || ae.Status != 0 || ae.Attempts != 3 {
		t.Errorf("error = %q (status %d, attempts %d), want %q after 3 attempts", ae.Error(), ae.Status, ae.Attempts, want)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, srv := startScript(t, parse(t, `{"turns": [{"status": 500, "times": 10}]}`), slowBackoff())
	// The logger cancels as soon as the provider announces a retry, which it
	// does just before waiting an hour.
	p.log = slog.New(cancelOnRetry{cancel})
	_, err := collect(t, ctx, p, userRequest("m", "hi"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want one wrapping context.Canceled", err)
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

// rawAnswer is one canned HTTP answer of a server started by startRaw.
type rawAnswer struct {
	status      int
	contentType string
	body        string
}

// startRaw serves answers in turn (the last one repeats) on 127.0.0.1, for
// server behaviour the scripted server does not produce, and returns a
// provider pointed at it and a counter of requests.
func startRaw(t *testing.T, answers []rawAnswer) (*Provider, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := answers[min(int(n.Add(1))-1, len(answers)-1)]
		w.Header().Set("Content-Type", a.contentType)
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.body)
	}))
	t.Cleanup(srv.Close)
	p, err := New(context.Background(), Config{BaseURL: srv.URL + "/v1", Retry: fastRetry()})
	if err != nil {
		t.Fatal(err)
	}
	return p, &n
}

func TestUnusualServers(t *testing.T) {
	t.Parallel()
	const sse = "text/event-stream"
	okStream := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"fine\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	tests := []struct {
		name         string
		answers      []rawAnswer
		wantRequests int64
		wantText     string
		wantStatus   int
		wantMsg      string
	}{
		{"plain-text 502 then success", []rawAnswer{{502, "text/plain", "upstream connect error"}, {200, sse, okStream}}, 2, "fine", 0, ""},
		{"plain-text 500 gives up", []rawAnswer{{500, "text/plain", "Internal Server Error\nstack..."}}, 3, "", 500,
			"failed with a server error (500) after 3 attempts: Internal Server Error."},
		{"HTML 503", []rawAnswer{{503, "text/html", "<html><body>Service Unavailable</body></html>"}}, 3, "", 503,
			"failed with a server error (503) after 3 attempts."},
		{"vLLM-style body", []rawAnswer{{400, "application/json", `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}`}}, 1, "", 400,
			"rejected the request (400): max_tokens is too large."},
		{"Ollama-style body", []rawAnswer{{404, "application/json", `{"error":"model \"qwen9\" not found, try pulling it first"}`}}, 1, "", 404,
			`does not know model "m" (404)`},
		{"quota exhausted", []rawAnswer{{429, "application/json", `{"error":{"message":"You exceeded your current quota.","type":"insufficient_quota","code":"insufficient_quota"}}`}}, 1, "", 429,
			"says the quota is exhausted (429): check your plan and billing."},
		{"error event first, retried", []rawAnswer{{200, sse, "data: {\"error\":{\"message\":\"Provider overloaded\",\"code\":502}}\n\n"}, {200, sse, okStream}}, 2, "fine", 0, ""},
		{"error event", []rawAnswer{{200, sse, "data: {\"error\":{\"message\":\"Context too long\",\"code\":\"context_length_exceeded\"}}\n\n"}}, 1, "", 0,
			"reported an error mid-response: Context too long."},
		{"JSON instead of a stream", []rawAnswer{{200, "application/json", `{"choices":[{"message":{"content":"hi"}}]}`}}, 1, "", 0,
			"answered without any stream events"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, n := startRaw(t, tt.answers)
			chunks, err := collect(t, context.Background(), p, userRequest("m", "hi"))
			if got := n.Load(); got != tt.wantRequests {
				t.Errorf("server saw %d requests, want %d", got, tt.wantRequests)
			}
			if tt.wantMsg == "" {
				if err != nil || text(chunks, false) != tt.wantText {
					t.Errorf("got %q, %v; want %q", text(chunks, false), err, tt.wantText)
				}
				return
			}
			ae := apiError(t, err)
			if ae.Status != tt.wantStatus || !strings.Contains(ae.Error(), tt.wantMsg) {
				t.Errorf("error = %d %q, want %d and a message containing %q", ae.Status, ae.Error(), tt.wantStatus, tt.wantMsg)
			}
		})
	}
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

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		ms, after string
		want      time.Duration
		ok        bool
	}{
		{"", "", 0, false},
		{"", "7", 7 * time.Second, true},
		{"", "-3", 0, true},
		{"", "Thu, 02 Jan 2025 03:04:15 GMT", 10 * time.Second, true},
		{"", "soon", 0, false},
		{"250", "1", 250 * time.Millisecond, true},
		{"12.5", "", 12500 * time.Microsecond, true},
		{"junk", "2", 2 * time.Second, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.ms != "" {
			h.Set("retry-after-ms", tt.ms)
		}
		if tt.after != "" {
			h.Set("Retry-After", tt.after)
		}
		got, ok := retryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(ms %q, after %q) = %s %v, want %s %v", tt.ms, tt.after, got, ok, tt.want, tt.ok)
		}
	}
}

func TestErrorDetail(t *testing.T) {
	t.Parallel()
	tests := []struct{ body, detail, code string }{
		{`{"error":{"message":"Bad thing.","type":"invalid_request_error","code":"bad_thing"}}`, "Bad thing", "bad_thing"},
		{`{"error":{"message":"Overloaded","code":529}}`, "Overloaded", "529"},
		{`{"error":"model not found"}`, "model not found", ""},
		{`{"object":"error","message":"too long","code":400}`, "too long", "400"},
		{`{"detail":"Not Found"}`, "Not Found", ""},
		{"upstream timeout\nmore", "upstream timeout", ""},
		{"<html>bad gateway</html>", "", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		detail, code := errorDetail([]byte(tt.body))
		if detail != tt.detail || code != tt.code {
			t.Errorf("errorDetail(%q) = %q %q, want %q %q", tt.body, detail, code, tt.detail, tt.code)
		}
	}
}
