package mcpclient_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"companion/mcpclient"
)

// testLog sends log output to t.Log.
func testLog(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}

// toolCount is how many numbered tools the test server lists, on pages of
// pageSize.
const (
	toolCount = 5
	pageSize  = 2
)

// newServer is the test server: numbered tools listed on pages, echo, ask
// (an elicitation during the call), add_tool (a list_changed), a prompt
// and a resource.
func newServer() *server.MCPServer {
	s := server.NewMCPServer("test", "1.0", server.WithToolCapabilities(true),
		server.WithPaginationLimit(pageSize), server.WithElicitation())
	for i := range toolCount {
		s.AddTool(mcp.NewTool(fmt.Sprintf("n%d", i)), textTool("n"))
	}
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("echo: " + req.GetString("text", "")), nil
	})
	s.AddTool(mcp.NewTool("ask"), askTool)
	s.AddTool(mcp.NewTool("add_tool"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.AddTool(mcp.NewTool("extra"), textTool("extra"))
		return mcp.NewToolResultText("added"), nil
	})
	s.AddPrompt(mcp.NewPrompt("greet", mcp.WithArgument("name")), func(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return mcp.NewGetPromptResult("greeting", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent("hello "+req.Params.Arguments["name"])),
		}), nil
	})
	s.AddResource(mcp.NewResource("test://note", "note", mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: "test://note", MIMEType: "text/plain", Text: "a note"}}, nil
		})
	return s
}

// askTool asks for a name (an elicitation during the call) the way a
// 2026-07-28 server does, as input the client answers on a retry; mcp-go's
// server turns it into elicitation/create for clients of the handshake era.
func askTool(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if res := server.ElicitationResponse(req.Params.InputResponses, "who"); res != nil {
		content, _ := res.Content.(map[string]any)
		return mcp.NewToolResultText(fmt.Sprintf("%s %v", res.Action, content["name"])), nil
	}
	return server.NewInputRequestBuilder("").Elicit("who", mcp.ElicitationParams{
		Mode:            mcp.ElicitationModeForm,
		Message:         "Who are you?",
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
	}).ToolResult(), nil
}

func textTool(text string) server.ToolHandlerFunc {
	return func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(text), nil
	}
}

// fixture is a test server behind one transport.
type fixture struct {
	tr mcpclient.Transport
	// kill makes the server go away the way this transport shows it.
	kill func()
}

// transports are the ways the tests reach a server.
// mcp-go's SSE server cannot ask its client anything (its sessions do not
// support elicitation), so that transport skips the elicitation.
var transports = []struct {
	name   string
	start  func(t *testing.T, s *server.MCPServer) fixture
	elicit bool
}{
	{"stdio", startStdio, true},
	{"streamable-http", startStreamable, true},
	{"sse", startSSE, false},
}

// startStdio serves s over a pair of pipes.
func startStdio(t *testing.T, s *server.MCPServer) fixture {
	inR, inW := io.Pipe()   // client → server
	outR, outW := io.Pipe() // server → client
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = server.NewStdioServer(s).Listen(ctx, inR, outW)
	}()
	kill := func() {
		cancel()
		_ = outW.Close()
		_ = inR.Close()
	}
	t.Cleanup(func() { kill(); <-done })
	return fixture{tr: mcpclient.NewStdio(outR, inW), kill: kill}
}

// startStreamable serves s over Streamable HTTP; kill makes it forget
// every session (404), as a restarted server does.
func startStreamable(t *testing.T, s *server.MCPServer) fixture {
	var gone atomic.Bool
	h := server.NewStreamableHTTPServer(s)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gone.Load() {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	tr := mustTr(t)(mcpclient.NewStreamableHTTP(ts.URL+"/mcp", mcpclient.HTTPOptions{Listen: true, Client: ts.Client(), Log: testLog(t)}))
	return fixture{tr: tr, kill: func() {
		gone.Store(true)
		ts.CloseClientConnections()
	}}
}

// startSSE serves s over the legacy SSE transport.
func startSSE(t *testing.T, s *server.MCPServer) fixture {
	ts := httptest.NewServer(server.NewSSEServer(s))
	t.Cleanup(ts.Close)
	tr := mustTr(t)(mcpclient.NewSSE(ts.URL+"/sse", mcpclient.HTTPOptions{Client: ts.Client(), Log: testLog(t)}))
	return fixture{tr: tr, kill: ts.CloseClientConnections}
}

// checkNoGoroutines fails the test when a goroutine of the client is
// still there once things settle.
func checkNoGoroutines(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		left := clientGoroutines()
		if left == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("goroutines left after Close:\n%s", left)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// clientGoroutines returns the stacks that run code of the client or of
// mcp-go's client and transports ("" for none).
func clientGoroutines() string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var out []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "companion/mcpclient.") || strings.Contains(g, "mark3labs/mcp-go/client") {
			out = append(out, g)
		}
	}
	return strings.Join(out, "\n\n")
}

// mustTr fails the test when a transport cannot be made.
func mustTr(t *testing.T) func(mcpclient.Transport, error) mcpclient.Transport {
	return func(tr mcpclient.Transport, err error) mcpclient.Transport {
		t.Helper()
		if err != nil {
			t.Fatalf("transport: %v", err)
		}
		return tr
	}
}
