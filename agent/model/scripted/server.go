package scripted

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
)

// Server answers Gemini REST requests from a Script on 127.0.0.1. It is safe
// for concurrent requests.
type Server struct {
	// core holds the listener, the turn bookkeeping and the recordings, and
	// gives Server its Close and Requests.
	*core
}

// NewServer starts serving s on 127.0.0.1 on a free port. A nil s is an
// empty script (every request gets the fallback); a nil log discards logs.
func NewServer(s *Script, log *slog.Logger) (*Server, error) {
	srv := &Server{core: newCore(s, log, shape{label: "scripted", fail: writeError, userText: lastUserText})}
	if err := srv.start(srv); err != nil {
		return nil, err
	}
	return srv, nil
}

// URL is the server's base URL, to use as the genai BaseURL.
func (s *Server) URL() string { return s.url }

// ServeHTTP routes POST …/models/{model}:{method}.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, method, _ := strings.Cut(r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:], ":")
	s.handle(w, r, Recorded{Method: method, APIKey: apiKey(r)}, s.route)
}

// route answers a recorded request by its method.
func (s *Server) route(w http.ResponseWriter, r *http.Request, rec *Recorded) {
	switch {
	case r.Method != http.MethodPost:
		writeError(w, &Turn{Status: http.StatusMethodNotAllowed, Message: "only POST is supported"})
	case s.script.APIKey != "" && rec.APIKey != s.script.APIKey:
		writeError(w, &Turn{Status: http.StatusForbidden, Message: "API key not valid. Please pass a valid API key."})
	case rec.Body == nil:
		writeError(w, &Turn{Status: http.StatusBadRequest, Message: "the request body is not a JSON object"})
	case rec.Method == "countTokens":
		writeJSON(w, map[string]any{"totalTokens": len(rec.Raw) / 4})
	case rec.Method == "streamGenerateContent" || rec.Method == "generateContent":
		s.answer(w, r, rec)
	default:
		writeError(w, &Turn{Status: http.StatusNotFound, Message: fmt.Sprintf("method %q is not scripted", rec.Method)})
	}
}

// answer serves a generate request from the next matching turn.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, rec *Recorded) {
	turn := s.next(w, rec)
	if turn == nil {
		return
	}
	modelName := strings.TrimSuffix(rec.Path[strings.LastIndex(rec.Path, "/")+1:], ":"+rec.Method)
	a := answer{reply{turn: turn, model: modelName, promptBytes: len(rec.Raw)}}
	if rec.Method == "generateContent" {
		a.unary(r.Context(), w)
		return
	}
	a.stream(r.Context(), w)
}

// apiKey is the key a request carries.
func apiKey(r *http.Request) string {
	if k := r.Header.Get("x-goog-api-key"); k != "" {
		return k
	}
	return r.URL.Query().Get("key")
}

// lastUserText is the last text part of the last user turn that has text.
func lastUserText(body map[string]any) string {
	contents, _ := body["contents"].([]any)
	for i := len(contents) - 1; i >= 0; i-- {
		c, _ := contents[i].(map[string]any)
		if role, _ := c["role"].(string); role != "user" {
			continue
		}
		parts, _ := c["parts"].([]any)
		for j := len(parts) - 1; j >= 0; j-- {
			p, _ := parts[j].(map[string]any)
			if text, _ := p["text"].(string); text != "" && p["thought"] != true {
				return text
			}
		}
	}
	return "(nothing)"
}
