package gemini

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/genai"

	"companion/agent/model"
)

// responseEvents are Gemini API stream events with every field companion
// reads, in the REST shape.
var responseEvents = map[string]string{
	"text and thought": `{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me see.","thought":true,"thoughtSignature":"c2ln"},{"text":"Hi"}]},"index":0}],"modelVersion":"gemini-2.5-pro","responseId":"r-1"}`,
	"function call":    `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"write_file","args":{"file_path":"a","content":"x\ny","n":2,"list":[1,"b",null],"deep":{"k":true}}},"thoughtSignature":"AAEC"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"thoughtsTokenCount":2,"cachedContentTokenCount":1,"totalTokenCount":17,"promptTokensDetails":[{"modality":"TEXT","tokenCount":10}]}}`,
	"inline data":      `{"candidates":[{"content":{"role":"model","parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw=="}}]}}]}`,
	"safety":           `{"candidates":[{"finishReason":"SAFETY","finishMessage":"no","safetyRatings":[{"category":"HARM_CATEGORY_HARASSMENT","probability":"HIGH","blocked":true}]}]}`,
	"prompt blocked":   `{"promptFeedback":{"blockReason":"SAFETY","blockReasonMessage":"blocked","safetyRatings":[{"category":"HARM_CATEGORY_HATE_SPEECH","probability":"HIGH","blocked":true}]},"usageMetadata":{"promptTokenCount":3,"totalTokenCount":3}}`,
	"grounding":        `{"candidates":[{"content":{"role":"model","parts":[{"text":"Go 1.25"}]},"groundingMetadata":{"webSearchQueries":["go version"],"groundingChunks":[{"web":{"uri":"https://go.dev","title":"go.dev"}}],"groundingSupports":[{"segment":{"startIndex":0,"endIndex":7,"text":"Go 1.25"},"groundingChunkIndices":[0],"confidenceScores":[0.9]}]}}]}`,
	"unknown fields":   `{"candidates":[{"content":{"parts":[{"text":"a","futurePart":1}]},"futureField":{"x":1}}],"futureTop":[1]}`,
}

// sseServer serves events as one streamGenerateContent response.
func sseServer(t *testing.T, events ...string) *httptest.Server {
	t.Helper()
	var stream []byte
	for _, e := range events {
		stream = append(append(append(stream, "data: "...), e...), "\r\n\r\n"...)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write(stream)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// ours streams the events srv serves through the provider, from the
// Gemini API or from Vertex AI (express mode).
func ours(t *testing.T, srv *httptest.Server, vertex bool) ([]*genai.GenerateContentResponse, error) {
	t.Helper()
	return sent(t, Config{APIKey: "k", BaseURL: srv.URL, UseVertexAI: vertex})
}

// theirs streams the events srv serves through genai's
// GenerateContentStream, for the same backend.
func theirs(t *testing.T, srv *httptest.Server, vertex bool) ([]*genai.GenerateContentResponse, error) {
	t.Helper()
	backend := genai.BackendGeminiAPI
	if vertex {
		backend = genai.BackendVertexAI
	}
	client, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey: "k", Backend: backend, HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []*genai.GenerateContentResponse
	for r, err := range client.Models.GenerateContentStream(context.Background(), "gemini-2.5-pro", genai.Text("hi"), nil) {
		if err != nil {
			return got, err
		}
		r.SDKHTTPResponse = nil // headers, which companion does not read
		got = append(got, r)
	}
	return got, nil
}

// TestDecodeMatchesGenai: each event decodes to exactly the response genai
// makes of it, from the Gemini API (responseEvents) and from Vertex AI
// (vertexEvents), except that a Gemini API candidate's finishMessage is
// kept.
func TestDecodeMatchesGenai(t *testing.T) {
	t.Parallel()
	for _, vertex := range []bool{false, true} {
		events := responseEvents
		if vertex {
			events = vertexEvents
		}
		for name, event := range events {
			srv := sseServer(t, event)
			got, err := ours(t, srv, vertex)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := theirs(t, srv, vertex)
			if err != nil {
				t.Fatalf("%s: genai: %v", name, err)
			}
			if !vertex {
				keptFinishMessage(t, name, got)
			}
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Errorf("%s (vertex %v): decoded\n%s\ngenai decodes\n%s", name, vertex, g, w)
			}
		}
	}
}

// keptFinishMessage checks and clears the candidates' finishMessage:
// genai's Gemini API converter drops it, companion keeps it for its
// "stopped early" sentence.
func keptFinishMessage(t *testing.T, name string, got []*genai.GenerateContentResponse) {
	t.Helper()
	for _, r := range got {
		for _, c := range r.Candidates {
			if name == "safety" && c.FinishMessage != "no" {
				t.Errorf("finishMessage = %q, want no", c.FinishMessage)
			}
			c.FinishMessage = ""
		}
	}
}

// TestStreamErrorsMatchGenai: an error status, with a JSON, plain or empty
// body or Vertex AI's list of errors, and an error event mid-stream are
// the genai.APIError genai returns, from either API.
func TestStreamErrorsMatchGenai(t *testing.T) {
	t.Parallel()
	tests := map[string]http.HandlerFunc{
		"json body": func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(429)
			fmt.Fprint(w, `{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"3s"}]}}`)
		},
		"plain body": func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(502)
			fmt.Fprint(w, "bad gateway\n")
		},
		"other json": func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(400)
			fmt.Fprint(w, `{"oops":1}`)
		},
		"empty body": func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) },
		"error list": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			w.WriteHeader(403)
			fmt.Fprint(w, `[{"error":{"code":403,"message":"Permission 'aiplatform.endpoints.predict' denied","status":"PERMISSION_DENIED"}}]`)
		},
		"json error with 200": func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			fmt.Fprint(w, `{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}`)
		},
		"error event": func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, "data: "+responseEvents["text and thought"]+"\n\n")
			fmt.Fprint(w, `data: {"error":{"code":500,"message":"Internal error","status":"INTERNAL"}}`+"\n\n")
		},
	}
	for name, h := range tests {
		srv := httptest.NewServer(h)
		for _, vertex := range []bool{false, true} {
			gotR, gotErr := ours(t, srv, vertex)
			wantR, wantErr := theirs(t, srv, vertex)
			var got, want genai.APIError
			if !errors.As(gotErr, &got) || !errors.As(wantErr, &want) {
				t.Fatalf("%s (vertex %v): errors %v and genai's %v, want genai.APIError", name, vertex, gotErr, wantErr)
			}
			if !reflect.DeepEqual(got, want) || len(gotR) != len(wantR) {
				t.Errorf("%s (vertex %v): %#v after %d responses, genai: %#v after %d", name, vertex, got, len(gotR), want, len(wantR))
			}
		}
		srv.Close()
	}
}

// TestHugeEventAllocations decodes one 16 MiB function call event, from
// the Gemini API and from Vertex AI, through the provider's own sender,
// and bounds the bytes allocated from the request to the decoded response
// (GC-independent, unlike a peak). genai's reader allocated 15.5× a
// 32 MiB event (a doubling line buffer, a map, a re-encode, a decode);
// this one reads the line in blocks joined once and decodes it once
// (4.1–4.3×: 2× the line, 2× encoding/json's unquote and string).
func TestHugeEventAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocations")
	}
	content := strings.Repeat("a line of a big file\n", (16<<20)/21)
	event := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"write_file","args":{"file_path":"big.txt","content":` +
		`"` + strings.ReplaceAll(content, "\n", `\n`) + `"}}}]},"finishReason":"STOP"}]}`
	srv := sseServer(t, event)
	for _, backend := range []string{"gemini", "vertex"} {
		cfg := Config{APIKey: "k", BaseURL: srv.URL, UseVertexAI: backend == "vertex"}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got, err := sent(t, cfg)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", backend, err)
		}
		if args := got[0].Candidates[0].Content.Parts[0].FunctionCall.Args; args["content"] != content {
			t.Fatalf("%s: content of %d bytes decoded wrong", backend, len(content))
		}
		ratio := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(event))
		t.Logf("%s: allocated %.2f× the %d MiB event", backend, ratio, len(event)>>20)
		if ratio > 5 {
			t.Errorf("%s: decoding one %d MiB event allocated %.2f× it, want at most 5×", backend, len(event)>>20, ratio)
		}
	}
}

// sent streams one request through a provider made of cfg, as Stream
// sends it, and returns the responses.
func sent(t *testing.T, cfg Config) ([]*genai.GenerateContentResponse, error) {
	t.Helper()
	p, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	send, err := p.sender(context.Background(), &model.Request{Model: "gemini-2.5-pro"})
	if err != nil {
		t.Fatal(err)
	}
	var got []*genai.GenerateContentResponse
	err = send(context.Background(), func(r *genai.GenerateContentResponse) bool {
		got = append(got, r)
		return true
	})
	return got, err
}
