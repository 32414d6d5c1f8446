package openai

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"companion/agent/model"
)

func TestStreamTextAndThoughts(t *testing.T) {
	t.Parallel()
	p, srv := startScript(t, parse(t, `{"turns": [{
		"chunks": [{"thought": "Let me "}, {"thought": "look."}, {"text": "Hello "}, {"text": "wörld \"quoted\""}],
		"usage": {"promptTokens": 10, "outputTokens": 5, "thoughtTokens": 2}
	}], "fallback": "error"}`), fastRetry())

	chunks, err := collect(t, context.Background(), p, userRequest("qwen3", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 5 {
		t.Fatalf("got %d chunks, want 4 deltas and a final one: %+v", len(chunks), chunks)
	}
	if got := text(chunks, true); got != "Let me look." {
		t.Errorf("thoughts = %q, want %q", got, "Let me look.")
	}
	if got := text(chunks, false); got != `Hello wörld "quoted"` {
		t.Errorf("text = %q, want %q", got, `Hello wörld "quoted"`)
	}
	if reason, msg := lastFinish(chunks); reason != model.FinishStop || msg != "" {
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
	if dig(reqs[0].Body, "stream") != true || dig(reqs[0].Body, "stream_options", "include_usage") != true {
		t.Errorf("request did not ask for a stream with usage: %s", reqs[0].Raw)
	}
}

func TestStreamToolCalls(t *testing.T) {
	t.Parallel()
	p, _ := startScript(t, parse(t, `{"turns": [{"chunks": [
		{"text": "Reading both."},
		{"functionCall": {"id": "call_given", "name": "read_file", "args": {"file_path": "a.txt", "limit": 20}}},
		{"functionCall": {"name": "grep", "args": {"pattern": "naïve ✓", "paths": ["x", "y"]}}}
	]}], "fallback": "error"}`), fastRetry())

	chunks, err := collect(t, context.Background(), p, userRequest("gpt-4.1", "read"))
	if err != nil {
		t.Fatal(err)
	}
	got := calls(chunks)
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
		if len(calls([]*model.Chunk{c})) > 0 {
			withCalls++
		}
	}
	if withCalls != 1 {
		t.Errorf("calls spread over %d chunks, want 1", withCalls)
	}
	if text(chunks, false) != "Reading both." {
		t.Errorf("text = %q", text(chunks, false))
	}
	if reason, _ := lastFinish(chunks); reason != model.FinishStop {
		t.Errorf("finish = %q, want stop (tool_calls)", reason)
	}
}

func TestStreamFinishReasons(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, turn string
		want       model.FinishReason
		msgHas     string
	}{
		{"stop", `{"chunks": [{"text": "ok"}]}`, model.FinishStop, ""},
		{"length", `{"chunks": [{"text": "ok"}], "finishReason": "MAX_TOKENS"}`, model.FinishMaxTokens, "(length)"},
		{"safety", `{"chunks": [{"text": "ok"}], "finishReason": "SAFETY"}`, model.FinishSafety, "content filter"},
		{"content_filter as is", `{"chunks": [{"text": "ok"}], "finishReason": "content_filter"}`, model.FinishSafety, "(content_filter)"},
		{"blocked prompt", `{"blockReason": "SAFETY"}`, model.FinishSafety, "content_filter"},
		{"unknown", `{"chunks": [{"text": "ok"}], "finishReason": "MALFORMED_FUNCTION_CALL"}`, model.FinishOther, "malformed_function_call"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, _ := startScript(t, parse(t, `{"turns": [`+tt.turn+`], "fallback": "error"}`), fastRetry())
			chunks, err := collect(t, context.Background(), p, userRequest("m", "hi"))
			if err != nil {
				t.Fatal(err)
			}
			reason, msg := lastFinish(chunks)
			if reason != tt.want {
				t.Errorf("finish = %q, want %q", reason, tt.want)
			}
			if !strings.Contains(msg, tt.msgHas) || (tt.msgHas == "") != (msg == "") {
				t.Errorf("finish message = %q, want one containing %q", msg, tt.msgHas)
			}
		})
	}
}

func TestStreamConsumerStopsEarly(t *testing.T) {
	t.Parallel()
	p, srv := startScript(t, parse(t, `{"turns": [{"chunks": [{"text": "one"}, {"text": "two"}, {"text": "three"}]}], "fallback": "error"}`), fastRetry())
	var got []string
	for c, err := range p.Stream(context.Background(), userRequest("m", "hi")) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, text([]*model.Chunk{c}, false))
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
	p, srv := startScript(t, parse(t, `{"turns": [{"chunks": [{"text": "partial"}], "hang": true}], "fallback": "error"}`), fastRetry())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		var last error
		for c, err := range p.Stream(ctx, userRequest("m", "hi")) {
			if err != nil {
				last = err
				continue
			}
			if text([]*model.Chunk{c}, false) == "partial" {
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

func TestStreamBrokenMidResponse(t *testing.T) {
	t.Parallel()
	p, srv := startScript(t, parse(t, `{"turns": [{"chunks": [{"text": "partial"}], "hang": true}], "fallback": "error"}`), fastRetry())
	var got []string
	var final error
	for c, err := range p.Stream(context.Background(), userRequest("m", "hi")) {
		if err != nil {
			final = err
			continue
		}
		got = append(got, text([]*model.Chunk{c}, false))
		srv.Close() // cut the connection under the open stream
	}
	if len(got) != 1 || got[0] != "partial" {
		t.Errorf("chunks = %q, want just %q (no retry may repeat text)", got, "partial")
	}
	ae := apiError(t, final)
	if !strings.HasPrefix(ae.Error(), "The stream from the OpenAI-compatible server at ") || !strings.Contains(ae.Error(), "broke off mid-response") {
		t.Errorf("error = %q, want a broken-stream message", ae.Error())
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
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
