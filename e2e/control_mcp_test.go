package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"companion/internal/testkit/sdktest"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Model-facing MCP tool names: mcp_<server>_<tool>, for SDK-hosted servers
// as for any other.
const (
	calcTool = "mcp_calc_add"
	echoTool = "mcp_everything_echo"
)

// calcServer is an SDK-hosted MCP server with one tool, add.
func calcServer() *server.MCPServer {
	srv := server.NewMCPServer("calc", "1.0.0", server.WithToolCapabilities(true))
	srv.AddTool(mcp.NewTool("add", mcp.WithDescription("Adds two numbers"),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, b := req.GetFloat("a", 0), req.GetFloat("b", 0)
			return mcp.NewToolResultText(fmt.Sprintf("sum=%g", a+b)), nil
		})
	return srv
}

// serverStatuses asks mcp_server_status until no server is pending.
func serverStatuses(ctx context.Context, t *testing.T, s *sdktest.Session) map[string]sdktest.ServerStatus {
	t.Helper()
	st, err := s.SettledMCPServers(ctx)
	must(t, s, err)
	return st
}

// TestControlMCPServerStatus reports the real state of an SDK-hosted
// server, a stdio server, one that exits at once and an unreachable HTTP
// one.
func TestControlMCPServerStatus(t *testing.T) {
	t.Parallel()
	entry := everything(t)
	ctx := sdkContext(t)
	s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"`+echoTool+`","args":{"message":"hello stdio"}}}]},
		{"match":"Echo: hello stdio","chunks":[{"text":"Echoed."}]}],"fallback":"error"}`, workspace(t, nil),
		sdktest.Options{CanUseTool: allowAll, MCPServers: map[string]*server.MCPServer{"calc": calcServer()}})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{MCPServers: map[string]any{
		"everything": map[string]any{"command": "node", "args": []string{entry, "stdio"}},
		"broken":     map[string]any{"command": "/bin/false"},
		"nowhere":    map[string]any{"url": "http://127.0.0.1:9/mcp"},
	}})
	must(t, s, err)
	st := serverStatuses(ctx, t, s)
	if c := st["calc"]; c.Status != "connected" || !slices.Equal(c.Tools, []string{"add"}) || c.Transport == "" || c.Transport == "stdio" {
		t.Errorf("calc = %+v", c)
	}
	if e := st["everything"]; e.Status != "connected" || !slices.Contains(e.Tools, "echo") || e.Transport != "stdio" {
		t.Errorf("everything = %+v", e)
	}
	for _, name := range []string{"broken", "nowhere"} {
		if b := st[name]; b.Status != "failed" || b.Error == "" || b.Transport == "" {
			t.Errorf("%s = %+v", name, b)
		}
	}
	if len(st) != 4 {
		t.Errorf("statuses = %+v", st)
	}
	r, turn, err := s.Prompt(ctx, "echo through the stdio server")
	must(t, s, err)
	if _, res := toolResult(t, turn); r.Result != "Echoed." || res.IsError {
		t.Errorf("the stdio server's tool: %+v, %+v", res, r)
	}
	closeSDK(ctx, t, s)
}

// TestControlSDKMCPServer: the model calls the SDK-hosted server's tool,
// companion routes it through mcp_message, the answer reaches the
// tool_result; a notification from the SDK's server (tools changed) makes
// companion list the tools again.
func TestControlSDKMCPServer(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	calc := calcServer()
	s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"`+calcTool+`","args":{"a":2,"b":3}}}]},
		{"match":"sum=5","chunks":[{"text":"The sum is 5."}]}],"fallback":"error"}`,
		workspace(t, nil), sdktest.Options{CanUseTool: allowAll, MCPServers: map[string]*server.MCPServer{"calc": calc}})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{})
	must(t, s, err)
	r, turn, err := s.Prompt(ctx, "add 2 and 3")
	must(t, s, err)
	use, res := toolResult(t, turn)
	if r.Result != "The sum is 5." || use.Name != calcTool || res.IsError || !strings.Contains(res.ContentText(), "sum=5") {
		t.Errorf("result %+v; tool_use %+v; tool_result %+v", r, use, res)
	}
	if q := s.CanUseToolRequests(); len(q) != 1 || q[0].ToolName != calcTool || q[0].Confirmation["type"] != "mcp" {
		t.Errorf("the SDK server's tool skipped the permission policy: %+v", q)
	}
	methods := s.MCPMethods("calc")
	// mcp-go's server speaks 2026-07-28: server/discover opens it, no
	// initialize.
	for _, want := range []string{"server/discover", "tools/list", "tools/call"} {
		if !slices.Contains(methods, want) {
			t.Errorf("companion sent %q to the SDK server, no %s", methods, want)
		}
	}
	calc.AddTool(mcp.NewTool("mul", mcp.WithDescription("Multiplies")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("product"), nil
	})
	must(t, s, s.NotifyMCP(ctx, "calc", map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}))
	for !slices.Contains(serverStatuses(ctx, t, s)["calc"].Tools, "mul") {
		select {
		case <-ctx.Done():
			t.Fatalf("the tool list never changed after notifications/tools/list_changed; methods %q", s.MCPMethods("calc"))
		case <-time.After(50 * time.Millisecond):
		}
	}
	err = s.NotifyMCP(ctx, "nosuchserver", map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
	controlError(t, "mcp_message to an unknown server", err)
	closeSDK(ctx, t, s)
}
