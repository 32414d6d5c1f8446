package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
)

func TestStreamTextAndThoughts(t *testing.T) {
	t.Parallel()
	p, srv := start(t, modeltest.Parse(t, `{"turns": [{
		"chunks": [{"thought": "Let me "}, {"thought": "look."}, {"text": "Hello "}, {"text": "wörld \"quoted\""}],
		"usage": {"promptTokens": 10, "outputTokens": 5, "thoughtTokens": 2}
	}], "fallback": "error"}`), modeltest.FastRetry(), nil)

	chunks, err := modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("qwen3", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 5 {
		t.Fatalf("got %d chunks, want 4 deltas and a final one: %+v", len(chunks), chunks)
	}
	if got := modeltest.Text(chunks, true); got != "Let me look." {
		t.Errorf("thoughts = %q, want %q", got, "Let me look.")
	}
	if got := modeltest.Text(chunks, false); got != `Hello wörld "quoted"` {
		t.Errorf("text = %q, want %q", got, `Hello wörld "quoted"`)
	}
	if reason, msg := modeltest.LastFinish(chunks); reason != model.FinishStop || msg != "" {
		t.Errorf("finish = %q %q, want stop", reason, msg)
	}
	want := model.Usage{PromptTokens: 10, OutputTokens: 5, ThoughtTokens: 2, TotalTokens: 17}
	if u := chunks[4].Usage; u == nil || *u != want {
		t.Errorf("usage = %+v, want %+v", u, want)
	}
	for i, c := range chunks[:4] {
		if c.Usage != nil || c.FinishReason != model.FinishNone || len(c.Parts) != 1 {
			t.Errorf("chunk %d = %+v, want one part and no usage or finish", i+1, c)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].APIKey != "test-key" || reqs[0].Path != "/v1/chat/completions" {
		t.Fatalf("requests = %+v, want one to /v1/chat/completions with key test-key", reqs)
	}
	if modeltest.Dig(reqs[0].Body, "stream") != true || modeltest.Dig(reqs[0].Body, "stream_options", "include_usage") != true {
		t.Errorf("request did not ask for a stream with usage: %s", reqs[0].Raw)
	}
}

func TestStreamToolCalls(t *testing.T) {
	t.Parallel()
	p, _ := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [
		{"text": "Reading both."},
		{"functionCall": {"id": "call_given", "name": "read_file", "args": {"file_path": "a.txt", "limit": 20}}},
		{"functionCall": {"name": "grep", "args": {"pattern": "naïve ✓", "paths": ["x", "y"]}}}
	]}], "fallback": "error"}`), modeltest.FastRetry(), nil)

	chunks, err := modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("gpt-4.1", "read"))
	if err != nil {
		t.Fatal(err)
	}
	got := modeltest.Calls(chunks)
	if len(got) != 2 {
		t.Fatalf("got %d calls, want 2: %+v", len(got), chunks)
	}
	want := []*model.FunctionCall{
		{ID: "call_given", Name: "read_file", Args: map[string]any{"file_path": "a.txt", "limit": 20.0}},
		{ID: "call_scripted_1", Name: "grep", Args: map[string]any{"pattern": "naïve ✓", "paths": []any{"x", "y"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls = %+v %+v, want %+v %+v", got[0], got[1], want[0], want[1])
	}
	// Both calls arrive whole, together, when the server finishes them.
	var withCalls int
	for _, c := range chunks {
		if len(modeltest.Calls([]*model.Chunk{c})) > 0 {
			withCalls++
		}
	}
	if withCalls != 1 {
		t.Errorf("calls spread over %d chunks, want 1", withCalls)
	}
	if modeltest.Text(chunks, false) != "Reading both." {
		t.Errorf("text = %q", modeltest.Text(chunks, false))
	}
	if reason, _ := modeltest.LastFinish(chunks); reason != model.FinishStop {
		t.Errorf("finish = %q, want stop (tool_calls)", reason)
	}
}

func TestStreamFinishReasons(t *testing.T) {
	t.Parallel()
	modeltest.FinishReasons(t, start, "m", []modeltest.FinishCase{
		{Name: "stop", Turn: `{"chunks": [{"text": "ok"}]}`, Want: model.FinishStop},
		{Name: "length", Turn: `{"chunks": [{"text": "ok"}], "finishReason": "MAX_TOKENS"}`, Want: model.FinishMaxTokens, MsgHas: "(length)"},
		{Name: "safety", Turn: `{"chunks": [{"text": "ok"}], "finishReason": "SAFETY"}`, Want: model.FinishSafety, MsgHas: "content filter"},
		{Name: "content_filter as is", Turn: `{"chunks": [{"text": "ok"}], "finishReason": "content_filter"}`, Want: model.FinishSafety, MsgHas: "(content_filter)"},
		{Name: "blocked prompt", Turn: `{"blockReason": "SAFETY"}`, Want: model.FinishSafety, MsgHas: "content_filter"},
		{Name: "unknown", Turn: `{"chunks": [{"text": "ok"}], "finishReason": "MALFORMED_FUNCTION_CALL"}`, Want: model.FinishOther, MsgHas: "malformed_function_call"},
	})
}

func TestStreamConsumerStopsEarly(t *testing.T) {
	t.Parallel()
	p, srv := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [{"text": "one"}, {"text": "two"}, {"text": "three"}]}], "fallback": "error"}`), modeltest.FastRetry(), nil)
	var got []string
	for c, err := range p.Stream(context.Background(), modeltest.UserRequest("m", "hi")) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, modeltest.Text([]*model.Chunk{c}, false))
		break // a second yield after this would panic
	}
	if len(got) != 1 || got[0] != "one" {
		t.Errorf("chunks = %q, want just %q", got, "one")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

func TestCancelDuringHangingStream(t *testing.T) {
	t.Parallel()
	modeltest.CancelDuringHangingStream(t, start, "m")
}

func TestStreamBrokenMidResponse(t *testing.T) {
	t.Parallel()
	ae := modeltest.StreamBrokenMidResponse(t, start, "m")
	if !strings.HasPrefix(ae.Error(), "The stream from the OpenAI-compatible server at ") || !strings.Contains(ae.Error(), "broke off mid-response") {
		t.Errorf("error = %q, want a broken-stream message", ae.Error())
	}
}

func TestContextWindow(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ configured, want int }{{0, 128_000}, {32_768, 32_768}} {
		p, err := New(context.Background(), Config{ContextWindow: tt.configured})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.ContextWindow("any-model"); got != tt.want {
			t.Errorf("ContextWindow with %d configured = %d, want %d", tt.configured, got, tt.want)
		}
	}
}

// TestCancelBeforeHeaders cancels the context while the server has not
// answered at all: the stream ends with an error wrapping
// context.Canceled, after one request, and the server sees the request
// go away.
func TestCancelBeforeHeaders(t *testing.T) {
	t.Parallel()
	arrived, gone := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // the server notices a closed connection only once the body is read
		close(arrived)
		<-r.Context().Done()
		close(gone)
	}))
	t.Cleanup(srv.Close)
	p, err := New(context.Background(), Config{BaseURL: srv.URL + "/v1", Retry: modeltest.FastRetry()})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	_, err = modeltest.Collect(t, ctx, p, modeltest.UserRequest("m", "hi"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want one wrapping context.Canceled", err)
	}
	select {
	case <-gone:
	case <-time.After(modeltest.Deadline):
		t.Error("the server's request was not cancelled")
	}
}
