package companiontest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/server"
)

// The notifications the server sends.
const (
	MethodContextUpdate = "ide/contextUpdate"
	MethodDiffAccepted  = "ide/diffAccepted"
	MethodDiffRejected  = "ide/diffRejected"
	MethodDiffClosed    = "ide/diffClosed"
)

// ErrNoStream means a notification had no open stream to go to.
var ErrNoStream = errors.New("companiontest: no client stream open")

// streamBuffer is how many notifications a stream holds before Notify fails.
const streamBuffer = 64

// stream is one open GET stream.
type stream struct {
	ch chan []byte
}

// serveStream serves a session's GET stream: the current context first if
// the session has not had it, then every notification until the client or
// the server goes.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request) {
	session := r.Header.Get(server.HeaderKeySessionID)
	flusher, ok := w.(http.Flusher)
	if session == "" || !ok {
		http.Error(w, "a stream needs a session", http.StatusBadRequest)
		return
	}
	st := &stream{ch: make(chan []byte, streamBuffer)}
	s.mu.Lock()
	s.streams[st] = struct{}{}
	first := !s.pushed[session]
	s.pushed[session] = true
	current := s.context
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.streams, st)
		s.mu.Unlock()
	}()

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if first {
		msg, _ := encodeNotification(MethodContextUpdate, current)
		if writeEvent(w, msg) != nil {
			return
		}
	}
	flusher.Flush()
	for {
		select {
		case msg := <-st.ch:
			if writeEvent(w, msg) != nil {
				return
			}
			flusher.Flush()
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		}
	}
}

// writeEvent writes one SSE message event.
func writeEvent(w http.ResponseWriter, msg []byte) error {
	_, err := fmt.Fprintf(w, "event: message\ndata: %s\n\n", msg)
	return err
}

// encodeNotification encodes a JSON-RPC notification.
func encodeNotification(method string, params any) ([]byte, error) {
	return json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Notify sends a notification on every open stream. It fails with
// ErrNoStream when none is open, and when a stream's buffer is full.
func (s *Server) Notify(method string, params any) error {
	msg, err := encodeNotification(method, params)
	if err != nil {
		return fmt.Errorf("companiontest: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.streams) == 0 {
		return ErrNoStream
	}
	for st := range s.streams {
		select {
		case st.ch <- msg:
		default:
			return fmt.Errorf("companiontest: stream buffer full")
		}
	}
	return nil
}

// SetContext makes params (the ide/contextUpdate params, e.g.
// {"workspaceState": {...}}) the current context, which new sessions get
// first, and sends it on every open stream.
func (s *Server) SetContext(params any) error {
	if err := s.setContext(params); err != nil {
		return err
	}
	s.mu.Lock()
	msg := s.context
	s.mu.Unlock()
	if err := s.Notify(MethodContextUpdate, msg); err != nil && !errors.Is(err, ErrNoStream) {
		return err
	}
	return nil
}

// setContext stores params as the current context.
func (s *Server) setContext(params any) error {
	if params == nil {
		params = map[string]any{"workspaceState": map[string]any{"openFiles": []any{}}}
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("companiontest: context: %w", err)
	}
	s.mu.Lock()
	s.context = raw
	s.mu.Unlock()
	return nil
}

// Streams reports how many clients hold the notification stream open, so
// a test can wait for an agent to connect.
func (s *Server) Streams() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.streams)
}
