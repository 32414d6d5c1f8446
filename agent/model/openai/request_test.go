package openai

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// schema is a tool schema with keywords a Go-map round trip would reorder.
const schema = `{"type":"object","properties":{"file_path":{"type":"string","minLength":1},"limit":{"type":"integer"}},"required":["file_path"],"additionalProperties":false}`

// fullRequest uses every kind of part and a tool.
func fullRequest(modelName string) *model.Request {
	png := &model.Blob{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}
	return &model.Request{
		Model:  modelName,
		System: "You are a coding agent.",
		Tools:  []model.ToolDecl{{Name: "read_file", Description: "Reads a file.", Parameters: json.RawMessage(schema)}},
		Contents: []model.Content{
			{Role: model.RoleUser, Parts: []model.Part{{Text: "Read a.txt"}, {InlineData: png}}},
			{Role: model.RoleModel, Parts: []model.Part{
				{Text: "Checking.", Thought: true},
				{Text: "I will read "},
				{Text: "both."},
				{FunctionCall: &model.FunctionCall{ID: "call_1", Name: "read_file", Args: map[string]any{"file_path": "a.txt"}}},
				{FunctionCall: &model.FunctionCall{ID: "call_2", Name: "read_file", Args: map[string]any{"file_path": "b.png"}}},
			}},
			{Role: model.RoleUser, Parts: []model.Part{
				{FunctionResponse: &model.FunctionResponse{ID: "call_1", Name: "read_file", Response: map[string]any{"output": "hello"}}},
				{FunctionResponse: &model.FunctionResponse{
					ID: "call_2", Name: "read_file", Response: map[string]any{"output": "an image"},
					Parts: []model.Part{{InlineData: &model.Blob{MIMEType: "image/png", Data: []byte("img")}}},
				}},
			}},
			{Role: model.RoleModel, Parts: []model.Part{{Text: "Only thinking.", Thought: true}}},
			{Role: model.RoleUser, Parts: []model.Part{
				{FunctionResponse: &model.FunctionResponse{ID: "call_3", Name: "glob", Response: map[string]any{"error": "bad pattern"}}},
				{Text: "Also this."},
			}},
		},
	}
}

func TestRequestBodyGolden(t *testing.T) {
	t.Parallel()
	modeltest.GoldenRequest(t, start, fullRequest("gpt-4.1"), *update)
}

func TestRequestMessages(t *testing.T) {
	t.Parallel()
	p, srv := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [{"text": "ok"}]}], "fallback": "error"}`), modeltest.FastRetry(), nil)
	if _, err := modeltest.Collect(t, context.Background(), p, fullRequest("gpt-4.1")); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	body := r.Body
	checks := []struct {
		name string
		path []any
		want any
	}{
		{"model", []any{"model"}, "gpt-4.1"},
		{"system", []any{"messages", 0, "role"}, "system"},
		{"system text", []any{"messages", 0, "content"}, "You are a coding agent."},
		{"user text part", []any{"messages", 1, "content", 0, "text"}, "Read a.txt"},
		{"image as data URL", []any{"messages", 1, "content", 1, "image_url", "url"}, "data:image/png;base64,iVBORw=="},
		{"assistant text without thoughts", []any{"messages", 2, "content"}, "I will read both."},
		{"assistant call id", []any{"messages", 2, "tool_calls", 0, "id"}, "call_1"},
		{"assistant call type", []any{"messages", 2, "tool_calls", 0, "type"}, "function"},
		{"assistant call name", []any{"messages", 2, "tool_calls", 1, "function", "name"}, "read_file"},
		{"assistant call args", []any{"messages", 2, "tool_calls", 1, "function", "arguments"}, `{"file_path":"b.png"}`},
		{"tool message", []any{"messages", 3, "role"}, "tool"},
		{"tool_call_id", []any{"messages", 3, "tool_call_id"}, "call_1"},
		{"tool output", []any{"messages", 3, "content"}, "hello"},
		{"second tool_call_id", []any{"messages", 4, "tool_call_id"}, "call_2"},
		{"tool image intro", []any{"messages", 5, "content", 0, "text"}, "Output of tool read_file:"},
		{"tool image", []any{"messages", 5, "content", 1, "image_url", "url"}, "data:image/png;base64,aW1n"},
		{"thought-only turn dropped", []any{"messages", 6, "role"}, "tool"},
		{"tool error", []any{"messages", 6, "content"}, `{"error":"bad pattern"}`},
		{"text after tool results", []any{"messages", 7, "content"}, "Also this."},
		{"no more messages", []any{"messages", 8}, nil},
		{"tool kind", []any{"tools", 0, "type"}, "function"},
		{"tool description", []any{"tools", 0, "function", "description"}, "Reads a file."},
		{"schema keyword", []any{"tools", 0, "function", "parameters", "properties", "file_path", "minLength"}, 1.0},
	}
	for _, c := range checks {
		if got := modeltest.Dig(body, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: body%v = %#v, want %#v", c.name, c.path, got, c.want)
		}
	}
	if !strings.Contains(string(r.Raw), `"parameters":`+schema) {
		t.Errorf("the tool schema was not sent byte for byte:\n%s", r.Raw)
	}
	for _, thought := range []string{"Checking.", "Only thinking."} {
		if strings.Contains(string(r.Raw), thought) {
			t.Errorf("thought %q was sent back", thought)
		}
	}
}

func TestCallIDsPaired(t *testing.T) {
	t.Parallel()
	n := 0
	newID := func() string { n++; return fmt.Sprintf("gen_%d", n) }
	req := &model.Request{Model: "m", Contents: []model.Content{
		{Role: model.RoleModel, Parts: []model.Part{
			{FunctionCall: &model.FunctionCall{Name: "ls"}},
			{FunctionCall: &model.FunctionCall{Name: "cat", Args: map[string]any{"f": "a"}}},
			{FunctionCall: &model.FunctionCall{Name: "ls"}},
		}},
		{Role: model.RoleUser, Parts: []model.Part{
			{FunctionResponse: &model.FunctionResponse{Name: "ls", Response: map[string]any{"output": "1"}}},
			{FunctionResponse: &model.FunctionResponse{Name: "ls", Response: map[string]any{"output": "2"}}},
			{FunctionResponse: &model.FunctionResponse{Name: "cat", Response: map[string]any{"output": "3"}}},
		}},
	}}
	params, err := buildParams(req, newID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tc := range params.Messages[0].ToolCalls {
		got = append(got, tc.ID)
	}
	for _, m := range params.Messages[1:] {
		got = append(got, m.ToolCallID)
	}
	want := []string{"gen_1", "gen_2", "gen_3", "gen_1", "gen_3", "gen_2"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ids = %v, want %v (calls, then responses in order)", got, want)
	}
}

func TestNonImageMedia(t *testing.T) {
	t.Parallel()
	req := &model.Request{Model: "m", Contents: []model.Content{{Role: model.RoleUser, Parts: []model.Part{
		{Text: "Summarise"}, {InlineData: &model.Blob{MIMEType: "application/pdf", Data: []byte("%PDF")}},
	}}}}
	params, err := buildParams(req, newCallID)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(params.Messages)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "application/pdf attachment of 4 bytes omitted") || strings.Contains(string(data), "image_url") {
		t.Errorf("a PDF should become a note, not an image: %s", data)
	}
}

func TestInvalidToolSchema(t *testing.T) {
	t.Parallel()
	modeltest.InvalidToolSchema(t, start, "m")
}

func TestHeadersAndEmptyKey(t *testing.T) {
	// Not parallel: t.Setenv proves that the OPENAI_* environment is ignored.
	t.Setenv("OPENAI_API_KEY", "from-the-environment")
	t.Setenv("OPENAI_ORG_ID", "org-env")
	_, srv := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [{"text": "ok"}]}]}`), modeltest.FastRetry(), nil)
	rec := &headerRecorder{base: http.DefaultTransport}
	p2, err := New(context.Background(), Config{
		BaseURL:    srv.URL() + "/",
		HTTPClient: &http.Client{Transport: rec},
		Headers:    map[string]string{"HTTP-Referer": "https://example.test", "X-Title": "companion"},
		Retry:      modeltest.FastRetry(),
	})
	if err != nil {
		t.Fatal(err)
	}
	chunks, err := modeltest.Collect(t, context.Background(), p2, modeltest.UserRequest("llama3.2", "hi"))
	if err != nil {
		t.Fatal(err)
	}
	if got := modeltest.Text(chunks, false); got != "ok" {
		t.Errorf("text = %q, want ok", got)
	}
	h := rec.last()
	if h.Get("HTTP-Referer") != "https://example.test" || h.Get("X-Title") != "companion" {
		t.Errorf("configured headers missing: %v", h)
	}
	if h.Get("Authorization") != "" || h.Get("OpenAI-Organization") != "" {
		t.Errorf("credentials leaked from the environment: Authorization %q, OpenAI-Organization %q",
			h.Get("Authorization"), h.Get("OpenAI-Organization"))
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].APIKey != "" {
		t.Errorf("requests = %+v, want one without a key", reqs)
	}
}

func TestNewRejectsBadBaseURL(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"localhost:11434/v1", "ftp://host/v1", "http://", "://x"} {
		if _, err := New(context.Background(), Config{BaseURL: u}); err == nil || !strings.Contains(err.Error(), "absolute http") {
			t.Errorf("New(BaseURL %q) = %v, want ErrBadBaseURL", u, err)
		}
	}
	for _, u := range []string{"", "http://localhost:11434/v1", "https://openrouter.ai/api/v1/"} {
		if _, err := New(context.Background(), Config{BaseURL: u}); err != nil {
			t.Errorf("New(BaseURL %q) = %v, want no error", u, err)
		}
	}
}

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	env := map[string]string{"OPENAI_API_KEY": "k", "OPENAI_BASE_URL": "http://localhost:8000/v1"}
	got := ConfigFromEnv(func(k string) string { return env[k] })
	if got.APIKey != "k" || got.BaseURL != "http://localhost:8000/v1" {
		t.Errorf("ConfigFromEnv = %+v", got)
	}
}

// headerRecorder is a transport that keeps the headers of the last request.
type headerRecorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	h    http.Header
}

func (r *headerRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.h = req.Header.Clone()
	r.mu.Unlock()
	return r.base.RoundTrip(req)
}

func (r *headerRecorder) last() http.Header {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.h
}

// TestLimitsReachTheParams: a request's token limit and temperature (an
// MCP server's sampling request) become the chat completion's, and are
// left out when not asked for.
func TestLimitsReachTheParams(t *testing.T) {
	t.Parallel()
	n, temp := 50, 0.25
	p, err := buildParams(&model.Request{Model: "m", MaxOutputTokens: &n, Temperature: &temp}, func() string { return "id" })
	if err != nil || p.MaxCompletionTokens == nil || *p.MaxCompletionTokens != 50 || p.Temperature == nil || *p.Temperature != 0.25 {
		t.Errorf("params = %v tokens at %v, %v; want 50 at 0.25", p.MaxCompletionTokens, p.Temperature, err)
	}
	p, err = buildParams(&model.Request{Model: "m"}, func() string { return "id" })
	if err != nil {
		t.Fatal(err)
	}
	body, err := p.marshal()
	if err != nil || strings.Contains(string(body), "temperature") || strings.Contains(string(body), "max_completion_tokens") {
		t.Errorf("a request without limits sends them: %s, %v", body, err)
	}
}
