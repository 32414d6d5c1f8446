package gemini

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/genai"

	"companion/agent/model"
	"companion/internal/testkit/testio"
)

// vertexEvents are Vertex AI stream events with the fields its responses
// carry beyond the Gemini API's: createTime, citations with a
// publication date, a finish message, traffic type.
var vertexEvents = map[string]string{
	"text": `{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me see.","thought":true,"thoughtSignature":"c2ln"},{"text":"Hi"}]}}],"createTime":"2026-11-28T14:30:00.123456Z","modelVersion":"gemini-2.5-pro","responseId":"r-1"}`,
	"function call": `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"write_file","args":{"file_path":"a","content":"x\ny"}},"thoughtSignature":"AAEC"}]},"finishReason":"STOP"}],` +
		`"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"thoughtsTokenCount":2,"totalTokenCount":17,"trafficType":"ON_DEMAND","promptTokensDetails":[{"modality":"TEXT","tokenCount":10}]}}`,
	"citations": `{"candidates":[{"content":{"role":"model","parts":[{"text":"quoted"}]},"citationMetadata":{"citations":[{"startIndex":0,"endIndex":6,"uri":"https://example.com","title":"t","license":"mit","publicationDate":{"year":2024,"month":5,"day":1}}]}}]}`,
	"safety":    `{"candidates":[{"finishReason":"SAFETY","finishMessage":"no","safetyRatings":[{"category":"HARM_CATEGORY_HARASSMENT","probability":"HIGH","probabilityScore":0.9,"severity":"HARM_SEVERITY_HIGH","blocked":true}]}]}`,
	"blocked":   `{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT","blockReasonMessage":"blocked"},"usageMetadata":{"promptTokenCount":3,"totalTokenCount":3}}`,
	"unknown":   `{"candidates":[{"content":{"parts":[{"text":"a","futurePart":1}]},"futureField":{"x":1}}],"futureTop":[1]}`,
}

// vertexCase is one Vertex AI configuration whose request is compared
// with genai's.
type vertexCase struct {
	name   string
	cfg    Config
	model  string
	bearer bool // authenticated with the application-default credentials
}

func vertexCases() []vertexCase {
	regional := Config{UseVertexAI: true, Project: "proj", Location: "us-central1"}
	const proxy = "http://127.0.0.1:9/vertex/"
	return []vertexCase{
		{"regional", regional, "gemini-2.5-pro", true},
		{"global", Config{UseVertexAI: true, Project: "proj", Location: "global"}, "gemini-2.5-pro", true},
		{"no location", Config{UseVertexAI: true, Project: "proj"}, "gemini-2.5-flash", true},
		{"multi-region", Config{UseVertexAI: true, Project: "proj", Location: "eu"}, "gemini-2.5-pro", true},
		{"express", Config{UseVertexAI: true, APIKey: "vk"}, "gemini-2.5-pro", false},
		{"express with location", Config{UseVertexAI: true, APIKey: "vk", Location: "us-central1"}, "gemini-2.5-pro", false},
		{"proxy with project", Config{UseVertexAI: true, Project: "proj", Location: "europe-west4", BaseURL: proxy}, "gemini-2.5-pro", true},
		{"proxy with project only", Config{UseVertexAI: true, Project: "proj", BaseURL: proxy}, "gemini-2.5-pro", true},
		{"proxy only", Config{UseVertexAI: true, BaseURL: proxy}, "gemini-2.5-pro", false},
		{"publisher model", regional, "publishers/google/models/gemini-2.5-pro", true},
		{"other publisher", regional, "meta/llama-4-maverick", true},
		{"tuned endpoint", regional, "projects/other/locations/us-east1/endpoints/42", true},
		{"models path", regional, "models/gemini-2.5-pro", true},
	}
}

// TestVertexRequestMatchesGenai: for every way Vertex AI can be
// configured, the streaming request companion sends has the method, URL
// (host, API version, project and location path, model path, alt=sse),
// credentials (a bearer token from the application-default credentials,
// or the express-mode key) and body that genai's GenerateContentStream
// sends for the same configuration, seen by one capturing transport.
// testdata/vertex_requests.golden lists them.
func TestVertexRequestMatchesGenai(t *testing.T) {
	issued := fakeADC(t)
	req := fullRequest("gemini-2.5-pro")
	var golden strings.Builder
	for _, c := range vertexCases() {
		tap := &capture{}
		cfg := c.cfg
		cfg.HTTPClient = &http.Client{Transport: tap}
		p, err := New(context.Background(), cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		req.Model = c.model
		got, want := vertexRequests(t, p, tap, req)
		fmt.Fprintf(&golden, "%s\n\t%s %s\n\tauthorization: %s\n\tx-goog-api-key: %s\n",
			c.name, got.method, got.url, got.header.Get("Authorization"), got.header.Get("x-goog-api-key"))
		if got.method != want.method || got.url != want.url {
			t.Errorf("%s: %s %s, genai sends %s %s", c.name, got.method, got.url, want.method, want.url)
		}
		for _, h := range []string{"Authorization", "x-goog-api-key", "Content-Type", "x-server-timeout", "x-goog-user-project"} {
			if g, w := got.header.Values(h), want.header.Values(h); !reflect.DeepEqual(g, w) {
				t.Errorf("%s: %s = %q, genai sends %q", c.name, h, g, w)
			}
		}
		if g := got.header.Get("User-Agent") + "|" + got.header.Get("x-goog-api-client"); g != clientHeader()+"|"+clientHeader() {
			t.Errorf("%s: client headers %q", c.name, g)
		}
		if bearer := got.header.Get("Authorization") == "Bearer "+adcToken; bearer != c.bearer {
			t.Errorf("%s: Authorization %q, want a bearer token: %v", c.name, got.header.Get("Authorization"), c.bearer)
		}
		if g, w := canonical(t, got.body), canonical(t, want.body); !bytes.Equal(g, w) {
			t.Errorf("%s: body\n%s\ngenai sends\n%s", c.name, g, w)
		}
	}
	if issued.Load() == 0 {
		t.Error("the token endpoint of the application-default credentials was never asked")
	}
	testio.Golden(t, filepath.Join("testdata", "vertex_requests.golden"), []byte(golden.String()), *update)
}

// vertexRequests sends req once through the provider's stream client and
// once through its genai client, and returns the request each made.
func vertexRequests(t *testing.T, p *Provider, tap *capture, req *model.Request) (ours, theirs captured) {
	t.Helper()
	ctx := context.Background()
	send, err := p.sender(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if err := send(ctx, func(*genai.GenerateContentResponse) bool { return true }); err != nil {
		t.Fatal(err)
	}
	client, err := p.genaiClient(ctx)
	if err != nil {
		t.Fatal(err)
	}
	contents, config, err := buildRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range client.Models.GenerateContentStream(ctx, req.Model, contents, config) {
		if err != nil {
			t.Fatal(err)
		}
	}
	reqs := tap.take()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want ours and genai's", len(reqs))
	}
	return reqs[0], reqs[1]
}

// TestVertexBodyMatchesGenai: what Vertex AI takes and the Gemini API
// does not is sent as genai sends it; what it refuses, companion refuses
// too. (TestRESTBodyMatchesGenai checks every body case on Vertex too.)
func TestVertexBodyMatchesGenai(t *testing.T) {
	t.Parallel()
	yes := true
	hi := func(extra ...*genai.Part) []*genai.Content {
		return []*genai.Content{{Role: genai.RoleUser, Parts: append([]*genai.Part{{Text: "hi"}}, extra...)}}
	}
	onlyVertex := map[string]struct {
		contents []*genai.Content
		config   *genai.GenerateContentConfig
	}{
		"safety method": {hi(), &genai.GenerateContentConfig{SafetySettings: []*genai.SafetySetting{{Category: genai.HarmCategoryHarassment, Method: genai.HarmBlockMethodSeverity, Threshold: genai.HarmBlockThresholdBlockOnlyHigh}}}},
		"partial args":  {hi(&genai.Part{FunctionCall: &genai.FunctionCall{Name: "f", PartialArgs: []*genai.PartialArg{{JsonPath: "$.a", StringValue: "x"}}, WillContinue: &yes}}), &genai.GenerateContentConfig{}},
	}
	for name, c := range onlyVertex {
		compareVertexBody(t, name, "gemini-2.5-pro", c.contents, c.config)
	}
	refused := map[string]struct {
		contents []*genai.Content
		config   *genai.GenerateContentConfig
	}{
		"tool call":             {hi(&genai.Part{ToolCall: &genai.ToolCall{}}), &genai.GenerateContentConfig{}},
		"part metadata":         {hi(&genai.Part{PartMetadata: map[string]any{"a": 1}}), &genai.GenerateContentConfig{}},
		"system tool response":  {hi(), &genai.GenerateContentConfig{SystemInstruction: &genai.Content{Parts: []*genai.Part{{ToolResponse: &genai.ToolResponse{}}}}}},
		"continuing response":   {hi(&genai.Part{FunctionResponse: &genai.FunctionResponse{Name: "f", WillContinue: &yes}}), &genai.GenerateContentConfig{}},
		"response media":        {hi(&genai.Part{FunctionResponse: &genai.FunctionResponse{Name: "f", Parts: []*genai.FunctionResponsePart{{MediaProcessing: "x"}}}}), &genai.GenerateContentConfig{}},
		"file search":           {hi(), &genai.GenerateContentConfig{Tools: []*genai.Tool{{FileSearch: &genai.FileSearch{}}}}},
		"server-side tool call": {hi(), &genai.GenerateContentConfig{ToolConfig: &genai.ToolConfig{IncludeServerSideToolInvocations: &yes}}},
	}
	for name, c := range refused {
		if b, err := restBody(c.contents, c.config, true); err == nil {
			t.Errorf("%s: sent %s", name, b)
		}
		if _, err := genaiVertexBody(t, "gemini-2.5-pro", c.contents, c.config); err == nil {
			t.Errorf("%s: genai sent it; refused by companion only", name)
		}
	}
}

// compareVertexBody checks companion's Vertex body for contents and config
// against the one genai's Vertex client sends.
func compareVertexBody(t *testing.T, name, modelName string, contents []*genai.Content, config *genai.GenerateContentConfig) {
	t.Helper()
	ours, err := restBody(contents, config, true)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	theirs, err := genaiVertexBody(t, modelName, contents, config)
	if err != nil {
		t.Fatalf("%s: genai: %v", name, err)
	}
	if got, want := canonical(t, ours), canonical(t, theirs); !bytes.Equal(got, want) {
		t.Errorf("%s: Vertex body\n%s\ngenai sends\n%s", name, got, want)
	}
}

// genaiVertexBody is the body genai's Vertex client (express mode) sends
// for contents and config, or the error it refuses them with.
func genaiVertexBody(t *testing.T, modelName string, contents []*genai.Content, config *genai.GenerateContentConfig) ([]byte, error) {
	t.Helper()
	tap := &capture{}
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: "k", Backend: genai.BackendVertexAI, HTTPClient: &http.Client{Transport: tap},
		HTTPOptions: genai.HTTPOptions{BaseURL: "http://127.0.0.1:9/"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range client.Models.GenerateContentStream(context.Background(), modelName, contents, config) {
		if err != nil {
			return nil, err
		}
	}
	reqs := tap.take()
	if len(reqs) != 1 {
		t.Fatalf("genai made %d requests", len(reqs))
	}
	return reqs[0].body, nil
}
