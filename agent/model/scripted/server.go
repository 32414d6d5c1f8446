package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
)

// maxBody bounds a request body; real requests with images stay far below.
const maxBody = 64 << 20

// Server answers Gemini REST requests from a Script on 127.0.0.1. It is safe
// for concurrent requests.
type Server struct {
	script *Script
	log    *slog.Logger
	srv    *http.Server
	url    string

	// handlers tracks running handlers so Close can wait for them;
	// inFlight counts them for tests.
	handlers sync.WaitGroup
	inFlight atomic.Int64

	// mu guards used, requests and closed, and orders handlers.Add before
	// the Wait in Close.
	mu       sync.Mutex
	used     []int // per turn, requests answered so far
	requests []Recorded
	closed   bool
}

// Recorded is one request the server received, for tests to assert on.
type Recorded struct {
	// Method is the Gemini method: streamGenerateContent, generateContent
	// or countTokens.
	Method string
	// Path is the URL path, e.g. /v1beta/models/gemini-2.5-pro:generateContent.
	Path string
	// Query is the raw query string, e.g. alt=sse.
	Query string
	// APIKey is the key sent in x-goog-api-key or ?key=.
	APIKey string
	// Body is the decoded JSON body (nil if it was not JSON).
	Body map[string]any
	// Raw is the body as sent.
	Raw []byte
}

// NewServer starts serving s on 127.0.0.1 on a free port. A nil s is an
// empty script (every request gets the fallback); a nil log discards logs.
func NewServer(s *Script, log *slog.Logger) (*Server, error) {
	if s == nil {
		s = &Script{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("scripted: listen: %w", err)
	}
	srv := &Server{script: s, log: log, used: make([]int, len(s.Turns)), url: "http://" + ln.Addr().String()}
	srv.srv = &http.Server{Handler: srv, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
	go func() {
		if err := srv.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("scripted server stopped", slog.Any("error", err))
		}
	}()
	return srv, nil
}

// URL is the server's base URL, to use as the genai BaseURL.
func (s *Server) URL() string { return s.url }

// Close stops the server, ends open streams (hanging ones included) and
// waits for their handlers to return.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	if err := s.srv.Close(); err != nil {
		s.log.Debug("scripted server close", slog.Any("error", err))
	}
	s.handlers.Wait()
}

// Requests returns a copy of the requests received so far, in order.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.requests...)
}

// ServeHTTP routes POST …/models/{model}:{method}.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		writeError(w, &Turn{Status: http.StatusServiceUnavailable, Message: "the scripted server is closing"})
		return
	}
	s.handlers.Add(1)
	s.mu.Unlock()
	s.inFlight.Add(1)
	defer func() {
		s.inFlight.Add(-1)
		s.handlers.Done()
	}()
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, &Turn{Status: http.StatusBadRequest, Message: "could not read the request body"})
		return
	}
	_, method, _ := strings.Cut(r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:], ":")
	rec := Recorded{Method: method, Path: r.URL.Path, Query: r.URL.RawQuery, Raw: raw, APIKey: apiKey(r)}
	_ = json.Unmarshal(raw, &rec.Body) // Body stays nil for non-JSON; checked below
	s.mu.Lock()
	s.requests = append(s.requests, rec)
	s.mu.Unlock()
	s.log.Debug("scripted request", slog.String("path", r.URL.Path), slog.Int("bytes", len(raw)))

	switch {
	case r.Method != http.MethodPost:
		writeError(w, &Turn{Status: http.StatusMethodNotAllowed, Message: "only POST is supported"})
	case s.script.APIKey != "" && rec.APIKey != s.script.APIKey:
		writeError(w, &Turn{Status: http.StatusForbidden, Message: "API key not valid. Please pass a valid API key."})
	case rec.Body == nil:
		writeError(w, &Turn{Status: http.StatusBadRequest, Message: "the request body is not a JSON object"})
	case method == "countTokens":
		writeJSON(w, map[string]any{"totalTokens": len(raw) / 4})
	case method == "streamGenerateContent" || method == "generateContent":
		s.answer(w, r, &rec)
	default:
		writeError(w, &Turn{Status: http.StatusNotFound, Message: fmt.Sprintf("method %q is not scripted", method)})
	}
}

// answer serves a generate request from the next matching turn.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, rec *Recorded) {
	turn := s.take(rec.Raw)
	if turn == nil {
		if s.script.Fallback == FallbackError {
			writeError(w, &Turn{Status: http.StatusInternalServerError, Message: "the scripted model ran out of turns"})
			return
		}
		turn = &Turn{Chunks: []Chunk{{Text: "(demo model) You said: " + lastUserText(rec.Body)}}}
	}
	if turn.Status != 0 {
		writeError(w, turn)
		return
	}
	modelName := strings.TrimSuffix(rec.Path[strings.LastIndex(rec.Path, "/")+1:], ":"+rec.Method)
	a := answer{turn: turn, model: modelName, promptBytes: len(rec.Raw)}
	if rec.Method == "generateContent" {
		a.unary(r.Context(), w)
		return
	}
	a.stream(r.Context(), w)
}

// take claims the first turn with answers left whose Match occurs in raw.
func (s *Server) take(raw []byte) *Turn {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.script.Turns {
		t := &s.script.Turns[i]
		if s.used[i] < t.times() && (t.Match == "" || bytes.Contains(raw, []byte(t.Match))) {
			s.used[i]++
			return t
		}
	}
	return nil
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
