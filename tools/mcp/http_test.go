package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"companion/tools"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// headerRecorder records one request header of every request.
type headerRecorder struct {
	next http.Handler
	name string
	// mu guards seen.
	mu   sync.Mutex
	seen []string
}

func (h *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.seen = append(h.seen, r.Header.Get(h.name))
	h.mu.Unlock()
	h.next.ServeHTTP(w, r)
}

// values returns the recorded header values.
func (h *headerRecorder) values() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}

func TestStreamableHTTPInProcess(t *testing.T) {
	opts := testOptions(t, nil)
	handler := mcpserver.NewStreamableHTTPServer(newFakeServer(), mcpserver.WithStreamableHTTPLogger(opts.Log))
	rec := &headerRecorder{next: handler, name: "X-Api-Key"}
	srv := httptest.NewServer(rec)
	defer srv.Close()

	cfg := ServerConfig{Name: "web", URL: srv.URL + "/mcp", Headers: map[string]string{"X-Api-Key": "secret"}}
	opts.MaxRestarts = 1
	m := startManager(t, []ServerConfig{cfg}, opts)
	if !m.WaitReady(context.Background(), 20*time.Second) {
		t.Fatal("the HTTP server did not connect")
	}
	if st := status(t, m, "web"); st.State != StateReady || st.Transport != TransportHTTP {
		t.Fatalf("status = %+v", st)
	}
	if res := run(t, m, "mcp_web_echo", map[string]string{"text": "hi"}); res.Text != "echo: hi" {
		t.Errorf("echo = %+v", res)
	}
	for _, v := range rec.values() {
		if v != "secret" {
			t.Errorf("a request carried X-Api-Key %q, want the configured header", v)
		}
	}

	// The server goes away: a call under way is an error result, its
	// tools are gone, and the manager reconnects until it gives up.
	inv, err := findTool(t, m, "mcp_web_echo").Prepare(&tools.Env{}, json.RawMessage(`{"text":"hi"}`))
	if err != nil {
		t.Fatal(err)
	}
	srv.CloseClientConnections()
	srv.Close()
	if res, err := inv.Execute(context.Background(), nil); err != nil || !res.IsError {
		t.Errorf("echo after the server closed = %+v, %v", res, err)
	}
	waitFor(t, "web failed", stateIs(m, "web", StateFailed))
	if st := status(t, m, "web"); st.Restarts != 1 || st.LastError == "" {
		t.Errorf("status = %+v", st)
	}
	if hasTool(m, "mcp_web_echo") {
		t.Errorf("a failed server's tool is still offered: %v", toolNames(m))
	}
}

func TestHungHTTPServers(t *testing.T) {
	// The handler reads the body so that the server notices when the
	// client gives up, and otherwise never answers.
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	t.Cleanup(hung.Close) // after the manager's Close, which ends the hung requests
	opts := testOptions(t, nil)
	opts.ConnectTimeout = 300 * time.Millisecond
	opts.MaxRestarts = -1
	m := startManager(t, []ServerConfig{
		{Name: "sse", URL: hung.URL + "/sse", Transport: TransportSSE},
		{Name: "http", URL: hung.URL + "/mcp", Transport: TransportHTTP},
	}, opts)
	if !m.WaitReady(context.Background(), 20*time.Second) {
		t.Fatal("WaitReady gave up")
	}
	for name, want := range map[string]string{"sse": "no connection within 300ms", "http": "no answer to initialize within 300ms"} {
		if st := status(t, m, name); st.State != StateFailed || !strings.Contains(st.LastError, want) {
			t.Errorf("%s status = %+v, want failed with %q", name, st, want)
		}
	}
}
