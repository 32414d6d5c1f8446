package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
)

// TestOmittedFieldsStillSent: a field is left out only when companion
// means to leave it out: a temperature of 0 is sent as 0, a tool's empty
// output as "content": "", and a tool without parameters sends no
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

// TestBodySentAsMarshalled: the server receives exactly the bytes the typed
// request marshals to, the same on every attempt, with <, > and & as they
// are.
func TestBodySentAsMarshalled(t *testing.T) {
	t.Parallel()
	temp := 0.5
	req := modeltest.UserRequest("m", "if a < b && b > c")
	req.Temperature = &temp
	params, err := buildParams(req, newCallID)
	if err != nil {
		t.Fatal(err)
	}
	want, err := params.marshal()
	if err != nil {
		t.Fatal(err)
	}
	p, srv := start(t, modeltest.Parse(t, `{"turns": [{"status": 503, "times": 1}, {"chunks": [{"text": "ok"}]}], "fallback": "error"}`), modeltest.FastRetry(), nil)
	if _, err := modeltest.Collect(t, context.Background(), p, req); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("server saw %d requests, want 2 (a 503, then the retry)", len(reqs))
	}
	for i, r := range reqs {
		if string(r.Raw) != string(want) {
			t.Errorf("attempt %d sent\n%s\nwant\n%s", i+1, r.Raw, want)
		}
	}
	if !strings.HasPrefix(string(want), `{"model":"m","messages":[`) || !strings.Contains(string(want), `"temperature":0.5`) ||
		!strings.Contains(string(want), "a < b && b > c") {
		t.Errorf("body = %s, want the model first, temperature 0.5 and the text unescaped", want)
	}
}

// TestNoModelRefused: no model name is refused or altered before the
// server is asked. go-openai refused a temperature for o-series and gpt-5
// models and tools for its GPT-6 ids while reasoning; here every request
// reaches the server as asked, and a reasoning model's thoughts and tool
// calls come back.
func TestNoModelRefused(t *testing.T) {
	t.Parallel()
	temp := 0.25
	tools := []model.ToolDecl{{Name: "ls", Parameters: json.RawMessage(`{"type":"object"}`)}}
	for _, tt := range []struct {
		model       string
		temperature *float64
		tools       []model.ToolDecl
	}{
		{"o3-mini", &temp, nil},
		{"o1", &temp, tools},
		{"gpt-5-mini", &temp, tools},
		{"gpt-6-sol", nil, tools},
		{"qwen3", &temp, tools},
	} {
		t.Run(tt.model, func(t *testing.T) {
			t.Parallel()
			p, srv := start(t, modeltest.Parse(t, `{"turns": [{"chunks": [
				{"thought": "Listing first."}, {"functionCall": {"id": "c1", "name": "ls", "args": {}}}
			]}], "fallback": "error"}`), modeltest.FastRetry(), nil)
			req := modeltest.UserRequest(tt.model, "hi")
			req.Temperature, req.Tools = tt.temperature, tt.tools
			chunks, err := modeltest.Collect(t, context.Background(), p, req)
			if err != nil {
				t.Fatalf("error = %v, want the server's answer", err)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("server saw %d requests, want 1", len(reqs))
			}
			body := reqs[0].Body
			if got := modeltest.Dig(body, "model"); got != tt.model {
				t.Errorf("model sent = %v, want %s", got, tt.model)
			}
			if got, want := modeltest.Dig(body, "temperature"), 0.25; tt.temperature != nil && got != want {
				t.Errorf("temperature sent = %v, want %v", got, want)
			}
			if got := modeltest.Dig(body, "tools", 0, "function", "name"); tt.tools != nil && got != "ls" {
				t.Errorf("tools sent = %v, want ls", modeltest.Dig(body, "tools"))
			}
			if modeltest.Text(chunks, true) != "Listing first." || len(modeltest.Calls(chunks)) != 1 {
				t.Errorf("thoughts %q and %d calls, want the reasoning and one call", modeltest.Text(chunks, true), len(modeltest.Calls(chunks)))
			}
		})
	}
}

// paramServer answers like OpenAI's reasoning models: a 400 naming
// param when the request sends it, else a short stream. It records the
// bodies it got.
func paramServer(t *testing.T, param string) (url string, bodies func() []map[string]any) {
	t.Helper()
	var mu sync.Mutex
	var got []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		data, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(data, &body)
		mu.Lock()
		got = append(got, body)
		mu.Unlock()
		if _, ok := body["temperature"]; ok {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":{"message":"Unsupported parameter: 'temperature' is not supported with this model.",`+
				`"type":"invalid_request_error","param":"`+param+`","code":"unsupported_parameter"}}`)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"fine\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		return got
	}
}

// TestRejectedTemperature: when the server rejects the temperature by name
// (OpenAI's answer for o3-mini), the request is made once more without it;
// a 400 naming another parameter is reported, not repeated.
func TestRejectedTemperature(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		param    string
		requests int
		wantErr  string
	}{
		{"temperature", 2, ""},
		{"model", 1, "rejected the request (400): Unsupported parameter: 'temperature' is not supported with this model."},
	} {
		t.Run(tt.param, func(t *testing.T) {
			t.Parallel()
			url, bodies := paramServer(t, tt.param)
			p, err := New(context.Background(), Config{BaseURL: url, Retry: modeltest.FastRetry()})
			if err != nil {
				t.Fatal(err)
			}
			temp := 0.2
			req := modeltest.UserRequest("o3-mini", "hi")
			req.Temperature = &temp
			chunks, err := modeltest.Collect(t, context.Background(), p, req)
			got := bodies()
			if len(got) != tt.requests || got[0]["temperature"] != 0.2 {
				t.Fatalf("bodies = %v, want %d, the first with temperature 0.2", got, tt.requests)
			}
			if tt.wantErr != "" {
				if ae := modeltest.APIError(t, err); !strings.Contains(ae.Error(), tt.wantErr) || ae.Status != 400 {
					t.Errorf("error = %d %q, want 400 and %q", ae.Status, ae.Error(), tt.wantErr)
				}
				return
			}
			if _, sent := got[1]["temperature"]; sent || err != nil || modeltest.Text(chunks, false) != "fine" {
				t.Errorf("second body %v, text %q, error %v; want no temperature and the answer", got[1], modeltest.Text(chunks, false), err)
			}
		})
	}
}
