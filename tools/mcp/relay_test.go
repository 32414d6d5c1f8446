package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// inProcessRelay hosts an mcp-go server in the test, as an SDK would, and
// counts the messages relayed to it.
type inProcessRelay struct {
	srv  *mcpserver.MCPServer
	sent atomic.Int32

	mu     sync.Mutex
	onRecv func(json.RawMessage)
}

func (r *inProcessRelay) Send(ctx context.Context, msg json.RawMessage) (json.RawMessage, error) {
	r.sent.Add(1)
	resp := r.srv.HandleMessage(ctx, msg)
	if resp == nil {
		return nil, nil
	}
	return json.Marshal(resp)
}

func (r *inProcessRelay) OnMessage(f func(json.RawMessage)) {
	r.mu.Lock()
	r.onRecv = f
	r.mu.Unlock()
}

func (r *inProcessRelay) push(msg string) {
	r.mu.Lock()
	f := r.onRecv
	r.mu.Unlock()
	f(json.RawMessage(msg))
}

func TestRelayedServer(t *testing.T) {
	srv := mcpserver.NewMCPServer("calc", "1.0", mcpserver.WithToolCapabilities(true))
	srv.AddTool(mcpgo.NewTool("add", mcpgo.WithDescription("Add two numbers"),
		mcpgo.WithNumber("a", mcpgo.Required()), mcpgo.WithNumber("b", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			a, b := req.GetFloat("a", 0), req.GetFloat("b", 0)
			return mcpgo.NewToolResultText(json.Number(formatFloat(a + b)).String()), nil
		})
	relay := &inProcessRelay{srv: srv}
	var changes atomic.Int32
	m := startManager(t, []ServerConfig{{Name: "calc", Relay: relay}}, testOptions(t, &changes))
	if !m.WaitReady(context.Background(), 10*time.Second) {
		t.Fatal("the relayed server did not become ready")
	}
	if st := status(t, m, "calc"); st.State != StateReady || st.Transport != TransportRelay || st.PID != 0 {
		t.Fatalf("status = %+v, want a ready relay server", st)
	}
	if got := toolNames(m); !slices.Contains(got, "mcp_calc_add") {
		t.Fatalf("tools = %v, want mcp_calc_add", got)
	}
	if res := run(t, m, "mcp_calc_add", map[string]any{"a": 2, "b": 3}); res.IsError || res.Text != "5" {
		t.Errorf("add = %+v", res)
	}
	// A notification pushed by the server reaches the client: the tools
	// are listed again.
	before := relay.sent.Load()
	relay.push(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`)
	deadline := time.Now().Add(10 * time.Second)
	for relay.sent.Load() == before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if relay.sent.Load() == before {
		t.Error("tools/list_changed from the relay did not make the client list the tools again")
	}
}

func formatFloat(f float64) string {
	b, _ := json.Marshal(f)
	return string(b)
}

func TestRelayConfigValidation(t *testing.T) {
	c := ServerConfig{Name: "x", Transport: TransportRelay}
	if err := c.validate(); err == nil {
		t.Error("a relay server without a Relay validated")
	}
	c = ServerConfig{Name: "x", Relay: &inProcessRelay{}}
	if err := c.validate(); err != nil || c.transport() != TransportRelay {
		t.Errorf("validate = %v, transport %q", err, c.transport())
	}
}
