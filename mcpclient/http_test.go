package mcpclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"companion/mcpclient"
)

// recorder records, for every request, its method, its X-Key header,
// whether it carried a session id and its protocol version header.
type recorder struct {
	next http.Handler
	// mu guards seen.
	mu   sync.Mutex
	seen []string
}

func (r *recorder) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	r.seen = append(r.seen, fmt.Sprintf("%s key=%s session=%t version=%s", req.Method, req.Header.Get("X-Key"),
		req.Header.Get("Mcp-Session-Id") != "", req.Header.Get("MCP-Protocol-Version")))
	r.mu.Unlock()
	r.next.ServeHTTP(w, req)
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

// TestStreamableHTTPHeaders: custom headers go with every request. At
// 2026-07-28 every request carries the protocol version and no session;
// pinned to the handshake era, the session id from the initialize answer
// and the version go with every request after it, and Close ends the
// session with DELETE.
func TestStreamableHTTPHeaders(t *testing.T) {
	v := mcp.LATEST_LEGACY_PROTOCOL_VERSION
	tests := []struct {
		name string
		opts []mcpclient.Option
		want []string
		last string
	}{
		{"stateless", nil, []string{
			"POST key=k1 session=false version=" + mcp.LATEST_PROTOCOL_VERSION, // server/discover
			"POST key=k1 session=false version=" + mcp.LATEST_PROTOCOL_VERSION, // tools/list, page 1
		}, ""},
		{"handshake", []mcpclient.Option{mcpclient.WithProtocolVersion(v)}, []string{
			"POST key=k1 session=false version=",    // initialize
			"POST key=k1 session=true version=" + v, // notifications/initialized
			"POST key=k1 session=true version=" + v, // tools/list, page 1
		}, "DELETE key=k1 session=true version=" + v},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{next: server.NewStreamableHTTPServer(newServer())}
			ts := httptest.NewServer(rec)
			defer ts.Close()
			tr := mustTr(t)(mcpclient.NewStreamableHTTP(ts.URL+"/mcp", mcpclient.HTTPOptions{
				Headers: map[string]string{"X-Key": "k1"}, Client: ts.Client(), Log: testLog(t)}))
			s := connect(t, fixture{tr: tr}, tt.opts...)
			if _, err := s.c.ListTools(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			_ = s.c.Close()
			got := rec.requests()
			if len(got) < len(tt.want) || !slices.Equal(got[:len(tt.want)], tt.want) {
				t.Fatalf("requests = %q, want them to start with %q", got, tt.want)
			}
			for _, r := range got {
				if !strings.Contains(r, "key=k1") {
					t.Errorf("request %q lacks the header", r)
				}
			}
			if tt.last != "" && got[len(got)-1] != tt.last {
				t.Errorf("last request = %q, want %q", got[len(got)-1], tt.last)
			}
			checkNoGoroutines(t)
		})
	}
}

// TestHTTPStatusErrors: an HTTP error status is a transport error over
// both HTTP transports, not a server error, and 401 is ErrUnauthorized.
func TestHTTPStatusErrors(t *testing.T) {
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusInternalServerError} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "no", status)
		}))
		for _, kind := range []string{"streamable-http", "sse"} {
			t.Run(fmt.Sprintf("%s %d", kind, status), func(t *testing.T) {
				var tr mcpclient.Transport
				if kind == "sse" {
					tr = mustTr(t)(mcpclient.NewSSE(ts.URL+"/sse", mcpclient.HTTPOptions{Client: ts.Client()}))
				} else {
					tr = mustTr(t)(mcpclient.NewStreamableHTTP(ts.URL+"/mcp", mcpclient.HTTPOptions{Client: ts.Client()}))
				}
				c := mcpclient.New(tr)
				ctx := ctxT(t)
				err := c.Start(ctx)
				if err == nil {
					_, err = c.Initialize(ctx)
				}
				_ = c.Close()
				var rpcErr *mcpclient.Error
				if !errors.Is(err, mcpclient.ErrTransport) || errors.As(err, &rpcErr) {
					t.Fatalf("error = %v, want an HTTP %d transport error", err, status)
				}
				if got := errors.Is(err, mcpclient.ErrUnauthorized); got != (status == http.StatusUnauthorized) {
					t.Errorf("errors.Is(ErrUnauthorized) = %t for %d", got, status)
				}
				checkNoGoroutines(t)
			})
		}
		ts.Close()
	}
}

// TestSSEEndpoint: Start waits for the endpoint event within its context,
// and refuses an endpoint on another origin (it goes on waiting).
func TestSSEEndpoint(t *testing.T) {
	tests := []struct {
		name  string
		event string // "" sends none
		want  string
	}{
		{"no endpoint in time", "", "context deadline exceeded"},
		{"foreign endpoint", "http://elsewhere.example/messages", "context deadline exceeded"}, // refused: still waiting
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.WriteHeader(http.StatusOK)
				if tt.event != "" {
					fmt.Fprintf(w, "event: endpoint\ndata: %s\n\n", tt.event)
				}
				w.(http.Flusher).Flush()
				<-r.Context().Done()
			}))
			defer ts.Close()
			c := mcpclient.New(mustTr(t)(mcpclient.NewSSE(ts.URL+"/sse", mcpclient.HTTPOptions{Client: ts.Client()})))
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			err := c.Start(ctx)
			_ = c.Close()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Start = %v, want %q", err, tt.want)
			}
			checkNoGoroutines(t)
		})
	}
}

// TestHungNotification: a server that answers initialize but never
// answers the POST of notifications/initialized cannot hold Initialize
// past its context, nor Close.
func TestHungNotification(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if !strings.Contains(string(body), `"initialize"`) {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":%q,"capabilities":{},"serverInfo":{"name":"hung","version":"1"}}}`,
			mcp.LATEST_LEGACY_PROTOCOL_VERSION)
	}))
	defer ts.Close()
	c := mcpclient.New(mustTr(t)(mcpclient.NewStreamableHTTP(ts.URL, mcpclient.HTTPOptions{Client: ts.Client()})))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := c.Initialize(ctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Initialize = %v, want the context's deadline", err)
	}
	_ = c.Close()
	checkNoGoroutines(t)
}

// answerModes is a Streamable HTTP server that answers tools/call of
// "json" with one JSON message and of "sse" with a stream of events: a
// comment, a notification, then the response.
func answerModes(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	_ = json.Unmarshal(body, &msg)
	result := func(v string) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, msg.ID, v) }
	switch {
	case msg.ID == nil:
		w.WriteHeader(http.StatusAccepted)
	case msg.Method == "server/discover":
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, msg.ID)
	case msg.Method == "initialize":
		w.Header().Set("Mcp-Session-Id", "s1")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, result(fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{"tools":{}},"serverInfo":{"name":"test","version":"1"}}`,
			mcp.LATEST_LEGACY_PROTOCOL_VERSION)))
	case msg.Params.Name == "sse":
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, ": hello\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n\n")
		fmt.Fprintf(w, "id: 1\ndata: %s\n\n", result(`{"content":[{"type":"text","text":"from a stream"}]}`))
	default:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, result(`{"content":[{"type":"text","text":"from JSON"}]}`))
	}
}

// TestStreamableHTTPAnswerModes: the client reads both kinds of answer
// to a POST: one JSON message and a stream of events, whose notification
// arrives too.
func TestStreamableHTTPAnswerModes(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(answerModes))
	defer ts.Close()
	s := connect(t, fixture{tr: mustTr(t)(mcpclient.NewStreamableHTTP(ts.URL, mcpclient.HTTPOptions{Client: ts.Client()}))})
	defer s.c.Close()
	ctx := ctxT(t)
	for name, want := range map[string]string{"json": "from JSON", "sse": "from a stream"} {
		if res, err := s.c.CallTool(ctx, name, nil); err != nil || firstText(res) != want {
			t.Errorf("CallTool(%s) = %+v, %v; want %q", name, res, err, want)
		}
	}
	waitNotification(t, s, "notifications/message")
}
