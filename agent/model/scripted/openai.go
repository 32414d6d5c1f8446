package scripted

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Routes the OpenAI-shaped server answers.
const (
	openAIPath = "/v1/chat/completions"
	modelsPath = "/v1/models"
)

// OpenAIServer answers OpenAI Chat Completions requests from the same
// Script as Server, on 127.0.0.1, so that the real OpenAI provider (and any
// OpenAI-compatible client) can be tested against scripted turns. It answers
// POST /v1/chat/completions, streamed (SSE chunks ending in "data: [DONE]")
// or not, and is safe for concurrent requests. See OPENAI.md for how a script
// maps to that wire.
type OpenAIServer struct {
	// core holds the listener, the turn bookkeeping and the recordings, and
	// gives OpenAIServer its Close and Requests (where Method is
	// "chat/completions" and APIKey the bearer token).
	*core
	// calls numbers the tool call ids the server makes up.
	calls atomic.Int64
}

// NewOpenAIServer starts serving s in the OpenAI Chat Completions shape on
// 127.0.0.1 on a free port. A nil s is an empty script (every request gets
// the fallback); a nil log discards logs.
func NewOpenAIServer(s *Script, log *slog.Logger) (*OpenAIServer, error) {
	o := &OpenAIServer{core: newCore(s, log, shape{label: "scripted OpenAI", fail: writeOpenAIError, userText: lastOpenAIUserText})}
	if err := o.start(o); err != nil {
		return nil, err
	}
	return o, nil
}

// URL is the base URL to give an OpenAI client: the server's address with
// the /v1 prefix, e.g. http://127.0.0.1:41234/v1.
func (o *OpenAIServer) URL() string { return o.url + "/v1" }

// ServeHTTP answers POST /v1/chat/completions; anything else is a 404 or
// 405 in the OpenAI error shape.
func (o *OpenAIServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	method := "chat/completions"
	if r.URL.Path == modelsPath {
		method = "models"
	}
	o.handle(w, r, Recorded{Method: method, APIKey: bearer(r)}, o.route)
}

// route answers a recorded request by its path and method.
func (o *OpenAIServer) route(w http.ResponseWriter, r *http.Request, rec *Recorded) {
	switch {
	case r.URL.Path == modelsPath && r.Method == http.MethodGet:
		o.models(w)
	case r.URL.Path != openAIPath:
		writeOpenAIError(w, &Turn{Status: http.StatusNotFound, Message: fmt.Sprintf("no route %s; only POST %s and GET %s are scripted", r.URL.Path, openAIPath, modelsPath)})
	case r.Method != http.MethodPost:
		writeOpenAIError(w, &Turn{Status: http.StatusMethodNotAllowed, Message: "only POST is supported"})
	case o.script.APIKey != "" && rec.APIKey != o.script.APIKey:
		writeOpenAIError(w, &Turn{Status: http.StatusUnauthorized, Message: "Incorrect API key provided."})
	case rec.Body == nil:
		writeOpenAIError(w, &Turn{Status: http.StatusBadRequest, Message: "the request body is not a JSON object"})
	default:
		o.answer(w, r, rec)
	}
}

// models answers GET /v1/models with the script's Models.
func (o *OpenAIServer) models(w http.ResponseWriter) {
	type entry struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []entry `json:"data"`
	}{Object: "list", Data: []entry{}}
	for _, m := range o.script.Models {
		list.Data = append(list.Data, entry{ID: m, Object: "model", OwnedBy: "scripted"})
	}
	writeJSON(w, list)
}

// answer serves a chat completion from the next matching turn.
func (o *OpenAIServer) answer(w http.ResponseWriter, r *http.Request, rec *Recorded) {
	turn := o.next(w, rec)
	if turn == nil {
		return
	}
	modelName, _ := rec.Body["model"].(string)
	a := openAIAnswer{
		reply:  reply{turn: turn, model: modelName, promptBytes: len(rec.Raw)},
		nextID: func() string { return fmt.Sprintf("call_scripted_%d", o.calls.Add(1)) },
	}
	if stream, _ := rec.Body["stream"].(bool); !stream {
		a.unary(r.Context(), w)
		return
	}
	opts, _ := rec.Body["stream_options"].(map[string]any)
	a.includeUsage, _ = opts["include_usage"].(bool)
	a.stream(r.Context(), w)
}

// bearer is the token of an "Authorization: Bearer" header.
func bearer(r *http.Request) string {
	v := r.Header.Get("Authorization")
	if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
		return strings.TrimSpace(v[7:])
	}
	return ""
}

// lastOpenAIUserText is the last text of the last user message that has
// text, whether its content is a string or an array of parts.
func lastOpenAIUserText(body map[string]any) string {
	messages, _ := body["messages"].([]any)
	for i := len(messages) - 1; i >= 0; i-- {
		m, _ := messages[i].(map[string]any)
		if role, _ := m["role"].(string); role != "user" {
			continue
		}
		switch content := m["content"].(type) {
		case string:
			if content != "" {
				return content
			}
		case []any:
			for j := len(content) - 1; j >= 0; j-- {
				p, _ := content[j].(map[string]any)
				if text, _ := p["text"].(string); text != "" && p["type"] == "text" {
					return text
				}
			}
		}
	}
	return "(nothing)"
}

// writeOpenAIError writes t's HTTP error in the OpenAI error shape. A
// RetryAfter becomes the Retry-After header and a RetryDelay the
// retry-after-ms header, as the OpenAI API sends them.
func writeOpenAIError(w http.ResponseWriter, t *Turn) {
	msg := t.Message
	if msg == "" {
		msg = http.StatusText(t.Status)
	}
	errType, code := openAIErrorKind(t.Status)
	if t.RetryAfter != "" {
		w.Header().Set("Retry-After", t.RetryAfter)
	}
	if d, err := time.ParseDuration(t.RetryDelay); err == nil {
		w.Header().Set("retry-after-ms", fmt.Sprint(d.Milliseconds()))
	}
	body := map[string]any{"message": msg, "type": errType, "param": nil, "code": code}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(t.Status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": body}) // the client may be gone
}

// openAIErrorKind is the error type and code the OpenAI API pairs with a
// status.
func openAIErrorKind(status int) (string, any) {
	switch {
	case status == http.StatusUnauthorized:
		return "invalid_request_error", "invalid_api_key"
	case status == http.StatusNotFound:
		return "invalid_request_error", "model_not_found"
	case status == http.StatusTooManyRequests:
		return "requests", "rate_limit_exceeded"
	case status >= 500:
		return "server_error", nil
	default:
		return "invalid_request_error", nil
	}
}
