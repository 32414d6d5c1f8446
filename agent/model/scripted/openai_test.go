package scripted

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// serveOpenAI starts an OpenAI-shaped server for the script text.
func serveOpenAI(t *testing.T, js string) *OpenAIServer {
	t.Helper()
	return serveWith(t, NewOpenAIServer, js)
}

// postOpenAI sends body to path under the server's /v1 base and returns the
// status, the Retry-After and retry-after-ms headers, and the body.
func postOpenAI(t *testing.T, srv *OpenAIServer, path, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, srv.URL()+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer k")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(data)
}

// chatBody is a Chat Completions request with one user message.
func chatBody(stream, usage bool, content any) string {
	body := map[string]any{"model": "gpt-test", "messages": []any{
		map[string]any{"role": "system", "content": "be brief"},
		map[string]any{"role": "user", "content": content},
	}}
	if stream {
		body["stream"] = true
	}
	if usage {
		body["stream_options"] = map[string]any{"include_usage": true}
	}
	data, _ := json.Marshal(body)
	return string(data)
}

func TestOpenAIStreamWireShape(t *testing.T) {
	t.Parallel()
	srv := serveOpenAI(t, `{"turns": [{"chunks": [{"thought": "hm"}, {"text": "Hi"}, {"thoughtSignature": "only"},
		{"functionCall": {"name": "ls", "args": {"dir_path": "."}}}, {"functionCall": {"id": "given", "name": "pwd"}}],
		"usage": {"promptTokens": 3, "outputTokens": 4, "thoughtTokens": 1}}]}`)
	status, _, body := postOpenAI(t, srv, "/chat/completions", chatBody(true, true, "hello"))
	head := `{"id":"chatcmpl-scripted","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[{"index":0,`
	want := strings.Join([]string{
		`data: ` + head + `"delta":{"role":"assistant","content":""},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{"reasoning_content":"hm"},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{"content":"Hi"},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{"tool_calls":[{"index":0,"id":"call_scripted_1","type":"function","function":{"name":"ls","arguments":""}}]},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"dir_pa"}}]},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{"tool_calls":[{"index":0,"function":{"arguments":"th\":\".\"}"}}]},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{"tool_calls":[{"index":1,"id":"given","type":"function","function":{"name":"pwd","arguments":""}}]},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{"}}]},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{"tool_calls":[{"index":1,"function":{"arguments":"}"}}]},"finish_reason":null}]}`,
		`data: ` + head + `"delta":{},"finish_reason":"tool_calls"}]}`,
		`data: {"id":"chatcmpl-scripted","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[],` +
			`"usage":{"prompt_tokens":3,"completion_tokens":5,"total_tokens":8,"completion_tokens_details":{"reasoning_tokens":1}}}`,
		`data: [DONE]`,
		``,
	}, "\n\n")
	if status != http.StatusOK || body != want {
		t.Errorf("status %d, body:\n%s\nwant:\n%s", status, body, want)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Method != "chat/completions" || reqs[0].Path != "/v1/chat/completions" || reqs[0].APIKey != "k" {
		t.Errorf("recorded %+v", reqs)
	}
}

func TestOpenAIResponses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script, path, body string
		wantStatus               int
		wantHas, wantNot         []string
		wantHeader               [2]string
	}{
		{"unary merges chunks", `{"turns": [{"chunks": [{"thought": "t"}, {"text": "a"}, {"text": "b"}, {"functionCall": {"name": "f"}}]}]}`,
			"/chat/completions", chatBody(false, false, "hi"), 200,
			[]string{`"object":"chat.completion"`, `"message":{"role":"assistant","content":"ab","reasoning_content":"t","tool_calls":[{"id":"call_scripted_1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
				`"finish_reason":"tool_calls"`, `"usage":{"prompt_tokens":`}, nil, [2]string{}},
		{"no usage unless asked", `{"turns": [{"chunks": [{"text": "a"}]}]}`, "/chat/completions", chatBody(true, false, "hi"), 200,
			[]string{`"finish_reason":"stop"`, "[DONE]"}, []string{`"usage"`}, [2]string{}},
		{"max tokens", `{"turns": [{"chunks": [{"text": "a"}], "finishReason": "MAX_TOKENS"}]}`, "/chat/completions", chatBody(true, false, "hi"), 200,
			[]string{`"finish_reason":"length"`}, nil, [2]string{}},
		{"block reason", `{"turns": [{"blockReason": "SAFETY"}]}`, "/chat/completions", chatBody(true, false, "hi"), 200,
			[]string{`"finish_reason":"content_filter"`}, nil, [2]string{}},
		{"rate limit with delays", `{"turns": [{"status": 429, "message": "slow", "retryDelay": "1500ms", "retryAfter": "2"}]}`,
			"/chat/completions", chatBody(true, false, "hi"), 429,
			[]string{`"message":"slow"`, `"code":"rate_limit_exceeded"`}, nil, [2]string{"2", "1500"}},
		{"echo string content", `{}`, "/chat/completions", chatBody(true, false, "hello"), 200,
			[]string{`"content":"(demo model) You said: hello"`}, nil, [2]string{}},
		{"echo array content", `{}`, "/chat/completions",
			chatBody(false, false, []any{map[string]any{"type": "text", "text": "from parts"}, map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:x"}}}), 200,
			[]string{`"content":"(demo model) You said: from parts"`}, nil, [2]string{}},
		{"error fallback", `{"fallback": "error"}`, "/chat/completions", chatBody(true, false, "hi"), 500,
			[]string{"ran out of turns", `"type":"server_error"`}, nil, [2]string{}},
		{"wrong key", `{"apiKey": "other"}`, "/chat/completions", chatBody(true, false, "hi"), 401,
			[]string{"Incorrect API key", `"code":"invalid_api_key"`}, nil, [2]string{}},
		{"unknown route", `{}`, "/embeddings", `{}`, 404, []string{"/v1/embeddings"}, nil, [2]string{}},
		{"not JSON", `{}`, "/chat/completions", `not json`, 400, []string{"not a JSON object"}, nil, [2]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := serveOpenAI(t, tt.script)
			status, header, body := postOpenAI(t, srv, tt.path, tt.body)
			if status != tt.wantStatus {
				t.Errorf("status = %d, want %d (body %s)", status, tt.wantStatus, body)
			}
			for _, s := range tt.wantHas {
				if !strings.Contains(body, s) {
					t.Errorf("body lacks %s:\n%s", s, body)
				}
			}
			for _, s := range tt.wantNot {
				if strings.Contains(body, s) {
					t.Errorf("body has %s:\n%s", s, body)
				}
			}
			if got := [2]string{header.Get("Retry-After"), header.Get("retry-after-ms")}; got != tt.wantHeader {
				t.Errorf("Retry-After, retry-after-ms = %q, want %q", got, tt.wantHeader)
			}
		})
	}
}

func TestOpenAIMatchAndTimes(t *testing.T) {
	t.Parallel()
	srv := serveOpenAI(t, `{"turns": [
		{"match": "alpha", "chunks": [{"text": "A"}]},
		{"status": 503, "times": 2},
		{"chunks": [{"text": "after errors"}]}
	], "fallback": "error"}`)
	runSteps(t, []step{
		{"beta", 503, "Service Unavailable"},
		{"alpha", 200, `"content":"A"`},
		{"beta", 503, "Service Unavailable"},
		{"beta", 200, "after errors"},
		{"alpha", 500, "ran out"},
	}, func(say string) (int, string) {
		status, _, body := postOpenAI(t, srv, "/chat/completions", chatBody(true, false, say))
		return status, body
	})
}

func TestOpenAIClientGoneEndsHandler(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{true, false} {
		srv := serveOpenAI(t, `{"turns": [{"chunks": [{"text": "x"}], "hang": true}]}`)
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/chat/completions", bytes.NewBufferString(chatBody(stream, false, "hi")))
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			// A unary answer hangs before its headers, so Do returns only
			// once the context is cancelled below.
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
		waitUntil(t, func() bool { return len(srv.Requests()) == 1 })
		cancel()
		<-done
		waitUntil(t, func() bool { return srv.core.inFlight.Load() == 0 })
	}
}

// TestOpenAIBigArgumentsInPieces: a call's arguments over bigArgs are
// streamed as an API server streams them, many deltas of at most
// argsPiece bytes, each cut at a rune boundary, that join to the call's
// JSON.
func TestOpenAIBigArgumentsInPieces(t *testing.T) {
	t.Parallel()
	content := strings.Repeat("zwölf \"Grüße\"\n", bigArgs/10)
	args, _ := json.Marshal(map[string]any{"content": content})
	script, _ := json.Marshal(map[string]any{"turns": []any{map[string]any{"chunks": []any{
		map[string]any{"functionCall": map[string]any{"name": "write_file", "args": map[string]any{"content": content}}}}}}})
	srv := serveOpenAI(t, string(script))
	status, _, body := postOpenAI(t, srv, "/chat/completions", chatBody(true, false, "write"))
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, body)
	}
	var joined strings.Builder
	pieces := 0
	for line := range strings.Lines(body) {
		data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var c oaCompletion
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			t.Fatalf("event %q: %v", data, err)
		}
		for _, tc := range c.Choices[0].Delta.ToolCalls {
			if a := tc.Function.Arguments; a != "" {
				if len(a) > argsPiece || !utf8.ValidString(a) {
					t.Fatalf("piece %q: over %d bytes or cut inside a rune", a, argsPiece)
				}
				joined.WriteString(a)
				pieces++
			}
		}
	}
	if joined.String() != string(args) {
		t.Fatalf("the pieces join to %d bytes, want the call's %d bytes of JSON", joined.Len(), len(args))
	}
	if want := len(args) / argsPiece; pieces < want {
		t.Errorf("%d pieces, want at least %d", pieces, want)
	}
}
