package gemini

import (
	"context"
	"encoding/json"
	"flag"
	"reflect"
	"testing"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// fullRequest uses every kind of part and a tool.
func fullRequest(modelName string) *model.Request {
	return &model.Request{
		Model:  modelName,
		System: "You are a coding agent.",
		Tools: []model.ToolDecl{{
			Name:        "read_file",
			Description: "Reads a file.",
			Parameters:  json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string","minLength":1}},"required":["file_path"],"additionalProperties":false}`),
		}},
		Contents: []model.Content{
			{Role: model.RoleUser, Parts: []model.Part{
				{Text: "Read a.txt"},
				{InlineData: &model.Blob{MIMEType: "image/png", Data: []byte{0x89, 'P', 'N', 'G'}}},
			}},
			{Role: model.RoleModel, Parts: []model.Part{
				{Text: "Checking.", Thought: true},
				{FunctionCall: &model.FunctionCall{ID: "call_1", Name: "read_file", Args: map[string]any{"file_path": "a.txt"}}, ThoughtSignature: []byte("sig")},
			}},
			{Role: model.RoleUser, Parts: []model.Part{
				{FunctionResponse: &model.FunctionResponse{
					ID: "call_1", Name: "read_file",
					Response: map[string]any{"output": "hello"},
					Parts:    []model.Part{{InlineData: &model.Blob{MIMEType: "image/png", Data: []byte("img")}}},
				}},
			}},
		},
	}
}

func TestRequestBodyGolden(t *testing.T) {
	t.Parallel()
	r := modeltest.GoldenRequest(t, start, fullRequest("gemini-2.5-pro"), *update)
	if r.Method != "streamGenerateContent" || r.Query != "alt=sse" || r.APIKey != "test-key" {
		t.Errorf("request = %s ?%s key %q, want streamGenerateContent ?alt=sse key test-key", r.Path, r.Query, r.APIKey)
	}
}

func TestRequestParts(t *testing.T) {
	t.Parallel()
	p, srv := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [{"text": "ok"}], "times": 2}], "fallback": "error"}`), modeltest.FastRetry(), nil)
	for _, m := range []string{"gemini-2.5-pro", "gemini-2.0-flash"} {
		if _, err := modeltest.Collect(t, context.Background(), p, fullRequest(m)); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	body := reqs[0].Body
	checks := []struct {
		name string
		path []any
		want any
	}{
		{"system instruction", []any{"systemInstruction", "parts", 0, "text"}, "You are a coding agent."},
		{"raw schema", []any{"tools", 0, "functionDeclarations", 0, "parametersJsonSchema", "additionalProperties"}, false},
		{"schema keyword kept", []any{"tools", 0, "functionDeclarations", 0, "parametersJsonSchema", "properties", "file_path", "minLength"}, 1.0},
		{"thought part", []any{"contents", 1, "parts", 0, "thought"}, true},
		{"call id", []any{"contents", 1, "parts", 1, "functionCall", "id"}, "call_1"},
		{"call signature", []any{"contents", 1, "parts", 1, "thoughtSignature"}, "c2ln"},
		{"response id", []any{"contents", 2, "parts", 0, "functionResponse", "id"}, "call_1"},
		{"response output", []any{"contents", 2, "parts", 0, "functionResponse", "response", "output"}, "hello"},
		{"response media", []any{"contents", 2, "parts", 0, "functionResponse", "parts", 0, "inlineData", "mimeType"}, "image/png"},
		{"inline data", []any{"contents", 0, "parts", 1, "inlineData", "data"}, "iVBORw=="},
		{"thinking on", []any{"generationConfig", "thinkingConfig", "includeThoughts"}, true},
	}
	for _, c := range checks {
		if got := modeltest.Dig(body, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: body%v = %#v, want %#v", c.name, c.path, got, c.want)
		}
	}
	if got := modeltest.Dig(reqs[1].Body, "generationConfig", "thinkingConfig"); got != nil {
		t.Errorf("gemini-2.0-flash was sent a thinking config: %v", got)
	}
}

func TestInvalidToolSchema(t *testing.T) {
	t.Parallel()
	modeltest.InvalidToolSchema(t, start, "gemini-2.5-pro")
}

// TestLimitsReachTheConfig: a request's token limit and temperature (an
// MCP server's sampling request) become the generation config's.
func TestLimitsReachTheConfig(t *testing.T) {
	n, temp := 50, 0.25
	_, cfg, err := buildRequest(&model.Request{Model: "gemini-2.0-flash", MaxOutputTokens: &n, Temperature: &temp})
	if err != nil || cfg.MaxOutputTokens != 50 || cfg.Temperature == nil || *cfg.Temperature != 0.25 {
		t.Errorf("config = %+v, %v; want 50 tokens at temperature 0.25", cfg, err)
	}
	if _, cfg, _ := buildRequest(&model.Request{Model: "gemini-2.0-flash"}); cfg.MaxOutputTokens != 0 || cfg.Temperature != nil {
		t.Errorf("a request without limits sets %d tokens, temperature %v", cfg.MaxOutputTokens, cfg.Temperature)
	}
}
