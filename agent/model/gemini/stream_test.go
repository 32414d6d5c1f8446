package gemini

import (
	"context"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
	"companion/agent/model/scripted"
)

func TestStreamChunksInOrder(t *testing.T) {
	t.Parallel()
	p, srv := start(t, modeltest.Parse(t, `{"turns": [{
		"chunks": [
			{"thought": "Let me look."},
			{"text": "Hello "},
			{"text": "world"},
			{"functionCall": {"name": "read_file", "args": {"file_path": "a.txt"}}, "thoughtSignature": "sig-1"},
			{"functionCall": {"id": "given-id", "name": "glob", "args": {"pattern": "*.go"}}}
		],
		"usage": {"promptTokens": 10, "outputTokens": 5, "thoughtTokens": 2}
	}], "fallback": "error"}`), modeltest.FastRetry(), nil)

	chunks, err := modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("gemini-2.5-pro", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	if len(chunks) != 5 {
		t.Fatalf("got %d chunks, want 5: %+v", len(chunks), chunks)
	}
	first := chunks[0].Parts[0]
	if !first.Thought || first.Text != "Let me look." {
		t.Errorf("chunk 1 = %+v, want the thought", first)
	}
	if got := modeltest.Text(chunks, false); got != "Hello world" {
		t.Errorf("text = %q, want %q", got, "Hello world")
	}
	call := chunks[3].Parts[0]
	if call.FunctionCall == nil || call.FunctionCall.Name != "read_file" || call.FunctionCall.Args["file_path"] != "a.txt" {
		t.Fatalf("chunk 4 = %+v, want read_file(a.txt)", call)
	}
	if !strings.HasPrefix(call.FunctionCall.ID, "call_") {
		t.Errorf("generated call id = %q, want a call_ prefix", call.FunctionCall.ID)
	}
	if string(call.ThoughtSignature) != "sig-1" {
		t.Errorf("thought signature = %q, want sig-1", call.ThoughtSignature)
	}
	if id := chunks[4].Parts[0].FunctionCall.ID; id != "given-id" {
		t.Errorf("API-given call id = %q, want given-id", id)
	}
	if reason, msg := modeltest.LastFinish(chunks); reason != model.FinishStop || msg != "" {
		t.Errorf("finish = %q %q, want stop", reason, msg)
	}
	want := model.Usage{PromptTokens: 10, OutputTokens: 5, ThoughtTokens: 2, TotalTokens: 17}
	if u := chunks[4].Usage; u == nil || *u != want {
		t.Errorf("usage = %+v, want %+v", u, want)
	}
	for i, c := range chunks[:4] {
		if c.Usage != nil || c.FinishReason != model.FinishNone {
			t.Errorf("chunk %d carries usage or a finish reason early: %+v", i+1, c)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("server saw %d requests, want 1", n)
	}
}

func TestStreamFinishReasons(t *testing.T) {
	t.Parallel()
	modeltest.FinishReasons(t, start, "gemini-2.5-flash", []modeltest.FinishCase{
		{Name: "stop", Turn: `{"chunks": [{"text": "ok"}]}`, Want: model.FinishStop},
		{Name: "max tokens", Turn: `{"chunks": [{"text": "ok"}], "finishReason": "MAX_TOKENS"}`, Want: model.FinishMaxTokens, MsgHas: "MAX_TOKENS"},
		{Name: "safety", Turn: `{"chunks": [{"text": "ok"}], "finishReason": "SAFETY"}`, Want: model.FinishSafety, MsgHas: "(SAFETY)"},
		{Name: "recitation", Turn: `{"chunks": [{"text": "ok"}], "finishReason": "RECITATION"}`, Want: model.FinishSafety, MsgHas: "RECITATION"},
		{Name: "prohibited", Turn: `{"finishReason": "PROHIBITED_CONTENT"}`, Want: model.FinishSafety, MsgHas: "PROHIBITED_CONTENT"},
		{Name: "spii", Turn: `{"finishReason": "SPII"}`, Want: model.FinishSafety, MsgHas: "SPII"},
		{Name: "blocked prompt", Turn: `{"blockReason": "SAFETY"}`, Want: model.FinishSafety, MsgHas: "blocked the prompt"},
		{Name: "malformed call", Turn: `{"finishReason": "MALFORMED_FUNCTION_CALL"}`, Want: model.FinishOther, MsgHas: "MALFORMED_FUNCTION_CALL"},
	})
}

func TestCountTokens(t *testing.T) {
	t.Parallel()
	p, srv := start(t, nil, modeltest.FastRetry(), nil)
	req := modeltest.UserRequest("gemini-2.5-pro", "count these words please")
	req.System = "You are terse."
	n, err := p.(*Provider).CountTokens(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Method != "countTokens" {
		t.Fatalf("server saw %+v, want one countTokens request", reqs)
	}
	if want := len(reqs[0].Raw) / 4; n != want || n == 0 {
		t.Errorf("CountTokens = %d, want the server's %d", n, want)
	}
	if !strings.Contains(string(reqs[0].Raw), "You are terse.") {
		t.Errorf("the system instruction was not counted: %s", reqs[0].Raw)
	}
}

func TestContextWindow(t *testing.T) {
	t.Parallel()
	p, err := New(context.Background(), Config{APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]int{
		"gemini-2.5-pro":              1_048_576,
		"gemini-2.5-flash":            1_048_576,
		"models/gemini-1.5-pro-002":   2_097_152,
		"gemini-3-pro-preview":        1_048_576,
		"something-we-never-heard-of": 1_048_576,
	}
	for name, want := range tests {
		if got := p.ContextWindow(name); got != want {
			t.Errorf("ContextWindow(%q) = %d, want %d", name, got, want)
		}
	}
}

func TestVertexExpressMode(t *testing.T) {
	t.Parallel()
	srv := modeltest.Serve(t, scripted.NewServer, modeltest.Parse(t, `{"turns": [{"chunks": [{"text": "from vertex"}]}], "fallback": "error"}`))
	p, err := New(context.Background(), Config{UseVertexAI: true, APIKey: "vk", BaseURL: srv.URL(), Retry: modeltest.FastRetry()})
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := modeltest.Collect(t, context.Background(), p, modeltest.UserRequest("gemini-2.5-pro", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	if got := modeltest.Text(chunks, false); got != "from vertex" {
		t.Errorf("text = %q, want %q", got, "from vertex")
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.HasPrefix(reqs[0].Path, "/v1beta1/") || reqs[0].APIKey != "vk" {
		t.Errorf("requests = %+v, want one Vertex (v1beta1) request with key vk", reqs)
	}
}
