package scripted

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// deadline bounds waits so that a bug fails a test instead of hanging it.
const deadline = 30 * time.Second

// serveWith starts a server made by newServer (NewServer or
// NewOpenAIServer) for the script text and closes it when the test ends.
func serveWith[S interface{ Close() }](t *testing.T, newServer func(*Script, *slog.Logger) (S, error), js string) S {
	t.Helper()
	s, err := ParseScript([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newServer(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// serve starts a Gemini-shaped server for the script text.
func serve(t *testing.T, js string) *Server {
	t.Helper()
	return serveWith(t, NewServer, js)
}

// post sends body to method of gemini-test and returns status and body.
func post(t *testing.T, ctx context.Context, srv *Server, method, body string) (int, string) {
	t.Helper()
	status, data, err := send(ctx, srv, method, body)
	if err != nil {
		t.Fatal(err)
	}
	return status, data
}

// send is post for goroutines, where t.Fatal must not be called.
func send(ctx context.Context, srv *Server, method, body string) (int, string, error) {
	url := srv.URL() + "/v1beta/models/gemini-test:" + method
	if method == "streamGenerateContent" {
		url += "?alt=sse"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("x-goog-api-key", "k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data), err
}

// userBody is a request body with one user text.
func userBody(text string) string {
	b, _ := json.Marshal(map[string]any{"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": text}}}}})
	return string(b)
}

func TestStreamWireShape(t *testing.T) {
	t.Parallel()
	srv := serve(t, `{"turns": [{"chunks": [{"thought": "hm"}, {"text": "Hi"},
		{"functionCall": {"name": "ls", "args": {"dir_path": "."}}, "thoughtSignature": "sig"}],
		"usage": {"promptTokens": 3, "outputTokens": 4, "thoughtTokens": 1}}]}`)
	status, body := post(t, context.Background(), srv, "streamGenerateContent", userBody("hello"))
	want := strings.Join([]string{
		`data: {"candidates":[{"content":{"role":"model","parts":[{"text":"hm","thought":true}]},"index":0}],"modelVersion":"gemini-test"}`,
		`data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"index":0}],"modelVersion":"gemini-test"}`,
		`data: {"candidates":[{"content":{"role":"model","parts":[{"thoughtSignature":"c2ln","functionCall":{"name":"ls","args":{"dir_path":"."}}}]},"finishReason":"STOP","index":0}],` +
			`"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":4,"thoughtsTokenCount":1,"totalTokenCount":8},"modelVersion":"gemini-test"}`,
		``,
	}, "\r\n\r\n")
	if status != http.StatusOK || body != want {
		t.Errorf("status %d, body:\n%s\nwant:\n%s", status, body, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Method != "streamGenerateContent" || reqs[0].Query != "alt=sse" || reqs[0].APIKey != "k" {
		t.Errorf("recorded %+v", reqs)
	}
	if dig := reqs[0].Body["contents"].([]any)[0].(map[string]any)["role"]; dig != "user" {
		t.Errorf("recorded body role = %v, want user", dig)
	}
}

func TestResponses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script, method string
		wantStatus           int
		wantHas              []string
	}{
		{"unary merges chunks", `{"turns": [{"chunks": [{"text": "a"}, {"text": "b"}, {"functionCall": {"name": "f"}}]}]}`, "generateContent",
			200, []string{`"parts":[{"text":"ab"},{"functionCall":{"name":"f"}}]`, `"finishReason":"STOP"`}},
		{"count tokens", `{}`, "countTokens", 200, []string{fmt.Sprintf(`{"totalTokens":%d}`, len(userBody("hello"))/4)}},
		{"error with retry info", `{"turns": [{"status": 429, "message": "slow", "retryDelay": "10ms"}]}`, "streamGenerateContent",
			429, []string{`"code":429`, `"status":"RESOURCE_EXHAUSTED"`, `"retryDelay":"10ms"`, `google.rpc.RetryInfo`, `"message":"slow"`}},
		{"block reason", `{"turns": [{"blockReason": "SAFETY"}]}`, "streamGenerateContent",
			200, []string{`"promptFeedback":{"blockReason":"SAFETY"}`}},
		{"finish without chunks", `{"turns": [{"finishReason": "MAX_TOKENS"}]}`, "streamGenerateContent",
			200, []string{`"finishReason":"MAX_TOKENS"`, `"usageMetadata"`}},
		{"echo fallback", `{}`, "streamGenerateContent", 200, []string{`(demo model) You said: hello`}},
		{"error fallback", `{"fallback": "error"}`, "streamGenerateContent", 500, []string{"ran out of turns"}},
		{"wrong key", `{"apiKey": "other"}`, "streamGenerateContent", 403, []string{"API key not valid"}},
		{"unknown method", `{}`, "embedContent", 404, []string{"embedContent"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, tt.script)
			status, body := post(t, context.Background(), srv, tt.method, userBody("hello"))
			if status != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %s)", status, tt.wantStatus, body)
			}
			for _, s := range tt.wantHas {
				if !strings.Contains(body, s) {
					t.Errorf("body lacks %s:\n%s", s, body)
				}
			}
		})
	}
}

func TestTurnOrderMatchAndTimes(t *testing.T) {
	t.Parallel()
	srv := serve(t, `{"turns": [
		{"match": "alpha", "chunks": [{"text": "A"}]},
		{"status": 500, "times": 2},
		{"chunks": [{"text": "after errors"}]}
	], "fallback": "error"}`)
	runSteps(t, []step{
		{"beta", 500, "Internal"},    // alpha does not match; the 500 turn does
		{"alpha", 200, `"text":"A"`}, // alpha is still unconsumed
		{"beta", 500, "Internal"},    // second of two 500s
		{"beta", 200, "after errors"},
		{"alpha", 500, "ran out"},
	}, func(say string) (int, string) {
		return post(t, context.Background(), srv, "streamGenerateContent", userBody(say))
	})
}

// step is one request of a conversation with a server: what the user says
// and what the server must answer.
type step struct {
	say        string
	wantStatus int
	wantHas    string
}

// runSteps sends the steps in order with post and checks each answer.
func runSteps(t *testing.T, steps []step, post func(say string) (status int, body string)) {
	t.Helper()
	for i, s := range steps {
		status, body := post(s.say)
		if status != s.wantStatus || !strings.Contains(body, s.wantHas) {
			t.Errorf("request %d (%s) = %d %s, want %d containing %s", i+1, s.say, status, body, s.wantStatus, s.wantHas)
		}
	}
}

func TestConcurrentSessions(t *testing.T) {
	t.Parallel()
	const sessions = 8
	var turns []string
	for i := range sessions {
		turns = append(turns, fmt.Sprintf(`{"match": "session-%d:", "delayMs": 1, "chunks": [{"text": "answer %d"}]}`, i, i))
	}
	srv := serve(t, `{"turns": [`+strings.Join(turns, ",")+`], "fallback": "error"}`)
	var wg sync.WaitGroup
	results := make([]string, sessions)
	for i := range sessions {
		wg.Go(func() {
			_, body, err := send(context.Background(), srv, "generateContent", userBody(fmt.Sprintf("session-%d: hi", i)))
			if err != nil {
				body = err.Error()
			}
			results[i] = body
		})
	}
	wg.Wait()
	for i, body := range results {
		if want := fmt.Sprintf(`"text":"answer %d"`, i); !strings.Contains(body, want) {
			t.Errorf("session %d got %s, want %s", i, body, want)
		}
	}
	if n := len(srv.Requests()); n != sessions {
		t.Errorf("recorded %d requests, want %d", n, sessions)
	}
}

func TestClientGoneEndsHandler(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, script string }{
		{"hang", `{"turns": [{"chunks": [{"text": "x"}], "hang": true}]}`},
		{"long delay", `{"turns": [{"chunks": [{"text": "x"}], "delayMs": 3600000}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serve(t, tt.script)
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/v1beta/models/m:streamGenerateContent?alt=sse", bytes.NewBufferString(userBody("hi")))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			cancel()
			resp.Body.Close()
			waitUntil(t, func() bool { return srv.core.inFlight.Load() == 0 })
		})
	}
}

// waitUntil polls cond until it holds, failing the test after deadline.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	stop := time.Now().Add(deadline)
	for !cond() {
		if time.Now().After(stop) {
			t.Fatal("condition not reached: the handler kept running after the client left")
		}
		time.Sleep(time.Millisecond)
	}
}
