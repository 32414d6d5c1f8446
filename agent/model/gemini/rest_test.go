package gemini

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/genai"

	"companion/agent/model"
	"companion/internal/testkit/testio"
)

// bodyCases are the requests whose REST body is checked against genai's.
func bodyCases() map[string]*model.Request {
	budget, tokens, temp := 512, 100, 0.5
	return map[string]*model.Request{
		"full":        fullRequest("gemini-2.5-pro"),
		"no_thinking": fullRequest("gemini-2.0-flash"),
		"limits": {Model: "gemini-2.5-flash", ThinkingBudget: &budget, MaxOutputTokens: &tokens, Temperature: &temp,
			Contents: []model.Content{{Role: model.RoleUser, Parts: []model.Part{{Text: "hi"}}}}},
		"bare": {Model: "models/gemini-2.0-flash", Contents: []model.Content{{Role: model.RoleUser, Parts: []model.Part{{Text: "hi"}}}}},
		"signature_only": {Model: "gemini-2.5-pro", Contents: []model.Content{
			{Role: model.RoleUser, Parts: []model.Part{{Text: "go"}}},
			{Role: model.RoleModel, Parts: []model.Part{{Text: "done", ThoughtSignature: []byte{0, 1, 2}}, {ThoughtSignature: []byte("x")}}},
			{Role: model.RoleUser, Parts: []model.Part{{FunctionResponse: &model.FunctionResponse{Name: "glob", Response: map[string]any{"error": "no match"}}}}},
		}},
		"tool_without_parameters": {Model: "gemini-2.5-pro", System: "s", Tools: []model.ToolDecl{{Name: "now", Description: "The time."}},
			Contents: []model.Content{{Role: model.RoleUser, Parts: []model.Part{{Text: "time?"}}}}},
	}
}

// genaiBody is the body and URL genai v1's GenerateContentStream sends for
// contents and config, captured by a test server.
func genaiBody(t *testing.T, modelName string, contents []*genai.Content, config *genai.GenerateContentConfig) ([]byte, string) {
	t.Helper()
	var body []byte
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		path = r.URL.Path + "?" + r.URL.RawQuery
		w.Header().Set("Content-Type", "text/event-stream")
	}))
	defer srv.Close()
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: "k", Backend: genai.BackendGeminiAPI, HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range client.Models.GenerateContentStream(context.Background(), modelName, contents, config) {
		if err != nil {
			t.Fatal(err)
		}
	}
	return body, path
}

// canonical re-marshals JSON with sorted keys and indentation.
func canonical(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestRESTBodyMatchesGenai: the body companion marshals is, field for
// field, the one genai builds for the same request (testdata/body/*.json
// hold it), and it goes to the same URL; on Vertex AI the body is the same,
// and the one genai's Vertex client builds.
func TestRESTBodyMatchesGenai(t *testing.T) {
	t.Parallel()
	for name, req := range bodyCases() {
		contents, config, err := buildRequest(req)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := restBody(contents, config, false)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		theirs, theirURL := genaiBody(t, req.Model, contents, config)
		got := canonical(t, ours)
		testio.Golden(t, filepath.Join("testdata", "body", name+".json"), got, *update)
		if want := canonical(t, theirs); !bytes.Equal(got, want) {
			t.Errorf("%s: body\n%s\ngenai sends\n%s", name, got, want)
		}
		vertex, err := restBody(contents, config, true)
		if err != nil {
			t.Fatalf("%s: Vertex: %v", name, err)
		}
		if v := canonical(t, vertex); !bytes.Equal(v, got) {
			t.Errorf("%s: Vertex body\n%s\nGemini API body\n%s", name, v, got)
		}
		compareVertexBody(t, name, req.Model, contents, config)
		p := &Provider{cfg: Config{APIKey: "k", BaseURL: "http://127.0.0.1:1"}, http: &http.Client{}}
		r, err := p.restRequest(context.Background(), geminiEndpoint(p.cfg), req.Model, ours)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.URL.Path + "?" + r.URL.RawQuery; got != theirURL {
			t.Errorf("%s: URL %s, genai's %s", name, got, theirURL)
		}
	}
}

// TestRESTBodyRefusesWhatItCannotSend: a config field the body does not
// map, or one the Developer API does not take, is an error rather than a
// setting silently lost.
func TestRESTBodyRefusesWhatItCannotSend(t *testing.T) {
	t.Parallel()
	yes := true
	tests := map[string]*genai.GenerateContentConfig{
		"unmapped field": {ResponseMIMEType: "application/json"},
		"labels":         {Labels: map[string]string{"a": "b"}},
		"safety method":  {SafetySettings: []*genai.SafetySetting{{Category: genai.HarmCategoryHarassment, Method: genai.HarmBlockMethodSeverity}}},
		"partial args":   nil,
		"will continue":  nil,
	}
	for name, config := range tests {
		contents := []*genai.Content{genai.NewContentFromText("hi", genai.RoleUser)}
		switch name {
		case "partial args":
			contents[0].Parts = append(contents[0].Parts, &genai.Part{FunctionCall: &genai.FunctionCall{Name: "f", PartialArgs: []*genai.PartialArg{}}})
		case "will continue":
			contents[0].Parts = append(contents[0].Parts, &genai.Part{FunctionCall: &genai.FunctionCall{Name: "f", WillContinue: &yes}})
		}
		if config == nil {
			config = &genai.GenerateContentConfig{}
		}
		if b, err := restBody(contents, config, false); err == nil {
			t.Errorf("%s: sent %s", name, b)
		}
	}
	full := &genai.GenerateContentConfig{
		SystemInstruction: genai.NewContentFromText("s", genai.RoleUser),
		Tools:             []*genai.Tool{{GoogleSearch: &genai.GoogleSearch{}}},
		ToolConfig:        &genai.ToolConfig{FunctionCallingConfig: &genai.FunctionCallingConfig{Mode: genai.FunctionCallingConfigModeAny}},
		SafetySettings:    []*genai.SafetySetting{{Category: genai.HarmCategoryHarassment, Threshold: genai.HarmBlockThresholdBlockNone}},
		Temperature:       genai.Ptr[float32](0.5), TopP: genai.Ptr[float32](0.9), TopK: genai.Ptr[float32](3),
		MaxOutputTokens: 9, StopSequences: []string{"END"}, Seed: genai.Ptr[int32](7),
		ThinkingConfig: &genai.ThinkingConfig{ThinkingBudget: genai.Ptr[int32](0)},
	}
	contents := []*genai.Content{genai.NewContentFromText("hi", genai.RoleUser)}
	ours, err := restBody(contents, full, false)
	if err != nil {
		t.Fatal(err)
	}
	theirs, _ := genaiBody(t, "gemini-2.5-pro", contents, full)
	if got, want := canonical(t, ours), canonical(t, theirs); !bytes.Equal(got, want) {
		t.Errorf("every mapped field: body\n%s\ngenai sends\n%s", got, want)
	}
}

// TestRESTHeaders: the key, content type and client headers are sent, and
// a deadline becomes x-server-timeout as genai sends it.
func TestRESTHeaders(t *testing.T) {
	t.Parallel()
	p := &Provider{cfg: Config{APIKey: "secret"}, http: &http.Client{}}
	ctx, cancel := context.WithTimeout(context.Background(), 90e9)
	defer cancel()
	r, err := p.restRequest(ctx, geminiEndpoint(p.cfg), "gemini-2.5-pro", []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"x-goog-api-key": "secret", "Content-Type": "application/json", "x-server-timeout": "90",
		"User-Agent": clientHeader(), "x-goog-api-client": clientHeader(),
	}
	for k, v := range want {
		if got := r.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	if got := r.URL.String(); got != "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse" {
		t.Errorf("default URL = %s", got)
	}
	if !strings.HasPrefix(clientHeader(), "companion gl-go/go") {
		t.Errorf("client header %q", clientHeader())
	}
	if _, err := p.restRequest(ctx, geminiEndpoint(p.cfg), "../x", nil); err == nil {
		t.Error("a model name with .. was accepted")
	}
}
