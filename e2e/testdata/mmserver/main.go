// Command mmserver is the stdio MCP server of the e2e tests in
// mcp_more_test.go: it asks the client for its roots and for samples, and
// with $MM_COUNT set it counts its starts in that file and exits at once
// on the first two (a server that crashes twice, then stays up).
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func main() {
	if path := os.Getenv("MM_COUNT"); path != "" {
		b, _ := os.ReadFile(path)
		n, _ := strconv.Atoi(string(b))
		n++
		_ = os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644)
		if n <= 2 {
			fmt.Fprintf(os.Stderr, "mmserver: crash number %d\n", n)
			os.Exit(1)
		}
	}
	s := server.NewMCPServer("mm", "1.0.0", server.WithToolCapabilities(false))
	s.EnableSampling()
	var changes atomic.Int32
	s.AddNotificationHandler(string(mcp.MethodNotificationRootsListChanged), func(context.Context, mcp.JSONRPCNotification) {
		changes.Add(1)
	})
	s.AddTool(mcp.NewTool("echo", mcp.WithString("text")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("echo: " + req.GetString("text", "")), nil
	})
	// roots and sample ask the client as a 2026-07-28 server does: input
	// requests answered on a retry (mcp-go's server sends roots/list and
	// sampling/createMessage instead to clients of the handshake era).
	s.AddTool(mcp.NewTool("roots"), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := server.RootsResponse(req.Params.InputResponses, "roots")
		if res == nil {
			return server.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
		}
		lines := []string{fmt.Sprintf("changes=%d", changes.Load())}
		for _, r := range res.Roots {
			lines = append(lines, "root "+r.URI)
		}
		return mcp.NewToolResultText(strings.Join(lines, "\n")), nil
	})
	s.AddTool(mcp.NewTool("sample", mcp.WithString("question")), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res := server.SamplingResponse(req.Params.InputResponses, "sample")
		if res == nil {
			return server.NewInputRequestBuilder("").Sample("sample", mcp.CreateMessageParams{
				Messages:     []mcp.SamplingMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(req.GetString("question", ""))}},
				SystemPrompt: "Answer in one word.", MaxTokens: 20,
			}).ToolResult(), nil
		}
		text := ""
		switch c := res.Content.(type) {
		case mcp.TextContent:
			text = c.Text
		case map[string]any:
			text, _ = c["text"].(string)
		}
		return mcp.NewToolResultText(fmt.Sprintf("sampled: %s (model %s, %s)", text, res.Model, res.StopReason)), nil
	})
	if err := server.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, "mmserver:", err)
		os.Exit(1)
	}
}
