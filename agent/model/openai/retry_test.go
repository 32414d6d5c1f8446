package openai

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"companion/agent/model/internal/modeltest"
	"companion/agent/model/scripted"
)

func TestRetryHonoursServerDelay(t *testing.T) {
	t.Parallel()
	modeltest.ServerDelay(t, start, "m", []modeltest.DelayCase{
		{Name: "Retry-After header", Failure: `{"status": 429, "retryAfter": "0"}`},
		{Name: "retry-after-ms header", Failure: `{"status": 503, "retryDelay": "10ms"}`},
	})
}

func TestRetryGivesUp(t *testing.T) {
	t.Parallel()
	modeltest.GivesUp(t, start, "gpt-9", []modeltest.GiveUpCase{
		{Name: "server error", Turn: `{"status": 500, "message": "The server had an error.", "times": 10}`, Requests: 3, Status: 500,
			Msg: "OpenAI-compatible server at {base} failed with a server error (500) after 3 attempts: The server had an error."},
		{Name: "rate limit", Turn: `{"status": 429, "times": 10}`, Requests: 3, Status: 429,
			Msg: "OpenAI-compatible server at {base} is rate-limiting requests (429) and did not recover after 3 attempts."},
		{Name: "long server delay", Turn: `{"status": 429, "retryAfter": "10800", "times": 10}`, Requests: 1, Status: 429,
			Msg: "OpenAI-compatible server at {base} is rate-limiting requests (429) and asks to wait 3h0m0s, so try again later."},
		{Name: "bad request", Turn: `{"status": 400, "message": "'messages' must contain the word 'json'.", "times": 10}`, Requests: 1, Status: 400,
			Msg: "OpenAI-compatible server at {base} rejected the request (400): 'messages' must contain the word 'json'."},
		{Name: "forbidden", Turn: `{"status": 403, "message": "Country not supported.", "times": 10}`, Requests: 1, Status: 403,
			Msg: "OpenAI-compatible server at {base} denied access (403): Country not supported: check the API key and its permissions."},
		{Name: "unknown model", Turn: `{"status": 404, "times": 10}`, Requests: 1, Status: 404,
			Msg: `OpenAI-compatible server at {base} does not know model "gpt-9" (404): check the model name and the base URL (it usually ends in /v1).`},
	})
}

func TestWrongAPIKey(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, want string }{
		{"wrong-key", "rejected the API key (401): Incorrect API key provided."},
		{"", "requires an API key (401), and none is configured."},
	}
	for _, tt := range tests {
		srv := modeltest.Serve(t, scripted.NewOpenAIServer, modeltest.Parse(t, `{"apiKey": "the-right-key", "turns": []}`))
		p, err := New(context.Background(), Config{APIKey: tt.key, BaseURL: srv.URL(), Retry: modeltest.FastRetry()})
		if err != nil {
			t.Fatal(err)
		}
		_, err = modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("m", "hi"))
		ae := modeltest.APIError(t, err)
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
	addr := modeltest.ClosedAddr(t)
	p, err := New(context.Background(), Config{BaseURL: "http://" + addr + "/v1", Retry: modeltest.FastRetry()})
	if err != nil {
		t.Fatal(err)
	}
	_, err = modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("m", "hi"))
	ae := modeltest.APIError(t, err)
	want := "Could not reach the OpenAI-compatible server at http://" + addr + "/v1: connection refused after 3 attempts (is the server running?)."
	if ae.Error() != want || ae.Status != 0 || ae.Attempts != 3 {
		t.Errorf("error = %q (status %d, attempts %d), want %q after 3 attempts", ae.Error(), ae.Status, ae.Attempts, want)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	modeltest.CancelDuringBackoff(t, start, "m")
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
	p, err := New(context.Background(), Config{BaseURL: srv.URL + "/v1", Retry: modeltest.FastRetry()})
	if err != nil {
		t.Fatal(err)
	}
	return p, &n
}

// serverCase is what an unusual server answers, and what the provider
// must make of it: the requests it makes, and the text, or the status and
// a part of the error message.
type serverCase struct {
	name         string
	answers      []rawAnswer
	wantRequests int64
	wantText     string
	wantStatus   int
	wantMsg      string
}

// unusualServers are the answers of servers that are not quite OpenAI.
func unusualServers() []serverCase {
	const sse = "text/event-stream"
	okStream := "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"fine\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	return []serverCase{
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
		{"keep-alive comments, then text", []rawAnswer{{200, sse, strings.Repeat(": OPENROUTER PROCESSING\n\n", 400) + okStream}}, 1, "fine", 0, ""},
		{"error event after a keep-alive", []rawAnswer{{200, sse, ": OPENROUTER PROCESSING\n\ndata: {\"error\":{\"message\":\"Upstream failed\",\"code\":\"x\"}}\n\n"}}, 1, "", 0,
			"reported an error mid-response: Upstream failed."},
		{"error event without a message object", []rawAnswer{{200, sse, "data: {\"error\":\"boom\"}\n\n"}}, 1, "", 0,
			"reported an error mid-response: boom."},
		{"error event without any detail", []rawAnswer{{200, sse, "data: {\"error\":{}}\n\n"}}, 1, "", 0,
			"reported an error mid-response: no details given."},
		{"last event without a newline", []rawAnswer{{200, sse, strings.TrimSuffix(okStream, "\n\ndata: [DONE]\n\n")}}, 1, "fine", 0, ""},
		{"typed error event", []rawAnswer{{200, sse, "event: error\ndata: {\"message\":\"Overloaded\",\"code\":529}\n\n"}}, 3, "", 529,
			"reported an error mid-response after 3 attempts: Overloaded."},
		{"CRLF stream with comments", []rawAnswer{{200, sse, ": hi\r\n\r\n" + strings.ReplaceAll(okStream, "\n", "\r\n")}}, 1, "fine", 0, ""},
		{"nothing after [DONE] is read", []rawAnswer{{200, sse, okStream + "data: {\"error\":\"late\"}\n\n"}}, 1, "fine", 0, ""},
		{"only comments", []rawAnswer{{200, sse, ": keep-alive\n\n: keep-alive\n\n"}}, 1, "", 0,
			"answered without any stream events"},
		{"malformed event", []rawAnswer{{200, sse, "data: {\"choices\":[\n\n"}}, 1, "", 0,
			"sent a malformed stream event"},
		{"JSON instead of a stream", []rawAnswer{{200, "application/json", `{"choices":[{"message":{"content":"hi"}}]}`}}, 1, "", 0,
			"answered without any stream events"},
	}
}

func TestUnusualServers(t *testing.T) {
	t.Parallel()
	for _, tt := range unusualServers() {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, n := startRaw(t, tt.answers)
			chunks, err := modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("m", "hi"))
			if got := n.Load(); got != tt.wantRequests {
				t.Errorf("server saw %d requests, want %d", got, tt.wantRequests)
			}
			if tt.wantMsg == "" {
				if err != nil || modeltest.Text(chunks, false) != tt.wantText {
					t.Errorf("got %q, %v; want %q", modeltest.Text(chunks, false), err, tt.wantText)
				}
				return
			}
			ae := modeltest.APIError(t, err)
			if ae.Status != tt.wantStatus || !strings.Contains(ae.Error(), tt.wantMsg) {
				t.Errorf("error = %d %q, want %d and a message containing %q", ae.Status, ae.Error(), tt.wantStatus, tt.wantMsg)
			}
		})
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
