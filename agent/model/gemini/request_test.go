package gemini

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"companion/agent/model"
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
	p, srv := startScript(t, parse(t, `{"turns": [{"chunks": [{"text": "ok"}]}], "fallback": "error"}`), fastRetry())
	if _, err := collect(t, context.Background(), p, fullRequest("gemini-2.5-pro")); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Method != "streamGenerateContent" || r.Query != "alt=sse" || r.APIKey != "test-key" {
		t.Errorf("request = %s ?%s key %q, want streamGenerateContent ?alt=sse key test-key", r.Path, r.Query, r.APIKey)
	}
	got, err := json.MarshalIndent(r.Body, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "request.golden.json")
	if *update {
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(got)+"\n" {
		t.Errorf("request body differs from %s (rerun with -update after checking):\n%s", golden, got)
	}
}

func TestRequestParts(t *testing.T) {
	t.Parallel()
	p, srv := startScript(t, parse(t, `{"turns": [{"chunks": [{"text": "ok"}], "times": 2}], "fallback": "error"}`), fastRetry())
	for _, m := range []string{"gemini-2.5-pro", "gemini-2.0-flash"} {
		if _, err := collect(t, context.Background(), p, fullRequest(m)); err != nil {
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
		if got := dig(body, c.path...); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: body%v = %#v, want %#v", c.name, c.path, got, c.want)
		}
	}
	if got := dig(reqs[1].Body, "generationConfig", "thinkingConfig"); got != nil {
		t.Errorf("gemini-2.0-flash was sent a thinking config: %v", got)
	}
}

func TestInvalidToolSchema(t *testing.T) {
	t.Parallel()
	p, srv := startScript(t, nil, fastRetry())
	req := userRequest("gemini-2.5-pro", "hi")
	req.Tools = []model.ToolDecl{{Name: "broken", Parameters: json.RawMessage(`{"type":`)}}
	if _, err := collect(t, context.Background(), p, req); err == nil {
		t.Fatal("a tool with invalid JSON parameters was sent")
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("server saw %d requests, want 0", n)
	}
}

// dig walks decoded JSON by keys and indexes; nil when a step is missing.
func dig(v any, path ...any) any {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[s]
		case int:
			a, _ := v.([]any)
			if s >= len(a) {
				return nil
			}
			v = a[s]
		}
	}
	return v
}
