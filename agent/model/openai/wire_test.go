package openai

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
)

// TestOmittedFieldsStillSent: what companion sends must not change with
// go-openai's omitempty tags: a temperature of 0 is sent as 0, a tool's
// empty output as "content": "", and a tool without parameters sends no
// "parameters": null.
func TestOmittedFieldsStillSent(t *testing.T) {
	t.Parallel()
	zero := 0.0
	req := &model.Request{
		Model: "m", Temperature: &zero,
		Tools: []model.ToolDecl{{Name: "now", Description: "The time."}, {Name: "ls", Parameters: json.RawMessage(`{"type":"object"}`)}},
		Contents: []model.Content{
			{Role: model.RoleModel, Parts: []model.Part{{FunctionCall: &model.FunctionCall{ID: "c1", Name: "ls"}}}},
			{Role: model.RoleUser, Parts: []model.Part{{FunctionResponse: &model.FunctionResponse{ID: "c1", Name: "ls", Response: map[string]any{"output": ""}}}}},
		},
	}
	p, srv := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [{"text": "ok"}]}], "fallback": "error"}`), modeltest.FastRetry(), nil)
	if _, err := modeltest.Collect(t, context.Background(), p, req); err != nil {
		t.Fatal(err)
	}
	body := srv.Requests()[0].Body
	checks := []struct {
		name string
		path []any
		want any
	}{
		{"temperature 0", []any{"temperature"}, 0.0},
		{"empty tool output", []any{"messages", 1, "content"}, ""},
		{"tool role", []any{"messages", 1, "role"}, "tool"},
		{"assistant without text has no content", []any{"messages", 0, "content"}, nil},
		{"tool without parameters", []any{"tools", 0, "function", "name"}, "now"},
		{"other tool keeps its parameters", []any{"tools", 1, "function", "parameters", "type"}, "object"},
		{"stream", []any{"stream"}, true},
	}
	for _, c := range checks {
		if got := modeltest.Dig(body, c.path...); got != c.want {
			t.Errorf("%s: body%v = %#v, want %#v", c.name, c.path, got, c.want)
		}
	}
	if fn, _ := modeltest.Dig(body, "tools", 0, "function").(map[string]any); fn == nil || fn["parameters"] != nil || len(fn) != 2 {
		t.Errorf("tool without parameters sent as %#v, want name and description only", fn)
	}
}

// TestUntouchedBodyNotRewritten: an ordinary request reaches the server
// exactly as go-openai marshals it (the doer amends only the rare cases).
func TestUntouchedBodyNotRewritten(t *testing.T) {
	t.Parallel()
	temp := 0.5
	req := modeltest.UserRequest("m", "hi")
	req.Temperature = &temp
	params, err := buildParams(req, newCallID)
	if err != nil || params.fix.needed() {
		t.Fatalf("buildParams = %+v, %v; want no amendment", params.fix, err)
	}
	p, srv := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [{"text": "ok"}]}], "fallback": "error"}`), modeltest.FastRetry(), nil)
	if _, err := modeltest.Collect(t, context.Background(), p, req); err != nil {
		t.Fatal(err)
	}
	raw := string(srv.Requests()[0].Raw)
	if !strings.HasPrefix(raw, `{"model":"m","messages":[`) || !strings.Contains(raw, `"temperature":0.5`) {
		t.Errorf("body = %s, want go-openai's field order with temperature 0.5", raw)
	}
}

// TestReasoningModelChecks documents go-openai's own checks of reasoning
// models: a temperature other than 1 for gpt-5, or tools for its GPT-6
// ids, fail before any request, with go-openai's sentence and no retry;
// other models are not checked.
func TestReasoningModelChecks(t *testing.T) {
	t.Parallel()
	temp := 0.25
	tools := []model.ToolDecl{{Name: "ls", Parameters: json.RawMessage(`{"type":"object"}`)}}
	for _, tt := range []struct {
		model       string
		temperature *float64
		tools       []model.ToolDecl
		wantErr     string
	}{
		{"gpt-5-mini", &temp, nil, "failed: this model has beta-limitations, temperature"},
		{"gpt-6-sol", nil, tools, "failed: tool calling with this model and reasoning effort requires the Responses API"},
		{"gpt-5-mini", nil, tools, ""},
		{"qwen3", &temp, tools, ""},
	} {
		p, srv := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [{"text": "ok"}]}], "fallback": "error"}`), modeltest.FastRetry(), nil)
		req := modeltest.UserRequest(tt.model, "hi")
		req.Temperature, req.Tools = tt.temperature, tt.tools
		_, err := modeltest.Collect(t, context.Background(), p, req)
		n := len(srv.Requests())
		if tt.wantErr == "" {
			if err != nil || n != 1 {
				t.Errorf("%s: %d requests, %v; want 1 and no error", tt.model, n, err)
			}
			continue
		}
		ae := modeltest.APIError(t, err)
		if n != 0 || ae.Attempts != 1 || !strings.Contains(ae.Error(), tt.wantErr) {
			t.Errorf("%s: %d requests, error %q after %d attempts; want none and %q after 1", tt.model, n, ae.Error(), ae.Attempts, tt.wantErr)
		}
	}
}

func TestCommentFilter(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 10_000)
	in := ": keep-alive\n\ndata: {\"a\":1}\n\n:" + long + "\ndata: " + long + ":not a comment\n: last"
	want := "\ndata: {\"a\":1}\n\ndata: " + long + ":not a comment\n"
	for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
		got, err := io.ReadAll(newCommentFilter(io.NopCloser(r), nil))
		if err != nil || string(got) != want {
			t.Errorf("filtered = %q, %v; want %q", got, err, want)
		}
	}
	// The last error event is kept; a last line without a newline gets one.
	info := &attemptInfo{}
	in = "data: {\"error\": \"first\"}\n\ndata: {\"a\":1}\n\ndata:{\"error\":\"boom\"}\n\ndata: {\"b\":2}"
	got, err := io.ReadAll(newCommentFilter(io.NopCloser(strings.NewReader(in)), info))
	if err != nil || string(got) != in+"\n" || string(info.event) != `{"error":"boom"}` {
		t.Errorf("filtered = %q, %v, event %q; want %q and the last error event", got, err, info.event, in+"\n")
	}
	broken := newCommentFilter(io.NopCloser(iotest.ErrReader(io.ErrUnexpectedEOF)), nil)
	if _, err := io.ReadAll(broken); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("error = %v, want the body's", err)
	}
}
