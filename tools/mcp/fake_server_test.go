package mcp

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// The test binary doubles as the fake MCP servers: run with fakeModeEnv set,
// TestMain runs a server instead of the tests.
const (
	fakeModeEnv     = "COMPANION_MCP_FAKE"
	fakeChildPIDEnv = "COMPANION_MCP_FAKE_CHILD_PID"
	// fakeCountEnv names the file where a flaky server counts its starts.
	fakeCountEnv = "COMPANION_MCP_FAKE_COUNT"
)

// pixelPNG is a 1x1 PNG.
var pixelPNG, _ = base64.StdEncoding.DecodeString(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==")

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeModeEnv); mode != "" {
		os.Exit(runFake(mode))
	}
	os.Exit(m.Run())
}

// runFake runs the fake server of mode:
//
//	ok        a working server (tools, prompts, resources, list_changed)
//	child     ok, after starting a grandchild whose pid it writes to
//	          $COMPANION_MCP_FAKE_CHILD_PID
//	exit      writes to stderr and exits 1 at once
//	stubborn  never answers and ignores SIGTERM and the end of stdin
//	sleep     sleeps (the grandchild of child)
//	flaky     ok, except its second start, which exits 1 at once
func runFake(mode string) int {
	switch mode {
	case "flaky":
		if n := countStart(); n == 2 {
			fmt.Fprintln(os.Stderr, "fake: flaky start", n)
			return 1
		}
	case "exit":
		fmt.Fprintln(os.Stderr, "fake: cannot start: missing token")
		return 1
	case "stubborn":
		signal.Ignore(syscall.SIGTERM)
		_, _ = io.Copy(io.Discard, os.Stdin)
		time.Sleep(time.Hour)
		return 0
	case "sleep":
		time.Sleep(time.Hour)
		return 0
	case "child":
		if err := startGrandchild(); err != nil {
			fmt.Fprintln(os.Stderr, "fake:", err)
			return 1
		}
	}
	if err := mcpserver.ServeStdio(newFakeServer()); err != nil {
		fmt.Fprintln(os.Stderr, "fake:", err)
		return 1
	}
	return 0
}

// countStart adds one to the start count in $COMPANION_MCP_FAKE_COUNT and
// returns it.
func countStart() int {
	path := os.Getenv(fakeCountEnv)
	b, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(string(b))
	n++
	_ = os.WriteFile(path, []byte(strconv.Itoa(n)), 0o644)
	return n
}

// startGrandchild starts this binary in sleep mode and records its pid.
func startGrandchild() error {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fakeModeEnv+"=sleep")
	if err := cmd.Start(); err != nil {
		return err
	}
	return os.WriteFile(os.Getenv(fakeChildPIDEnv), []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
}

// newFakeServer builds the working fake server.
func newFakeServer() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("fake", "1.0.0", mcpserver.WithToolCapabilities(true), mcpserver.WithElicitation(),
		mcpserver.WithPromptCapabilities(true), mcpserver.WithResourceCapabilities(false, true))
	text := func(t string) mcpserver.ToolHandlerFunc {
		return func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(t), nil
		}
	}
	s.AddTool(mcpgo.NewTool("echo", mcpgo.WithDescription("Echoes text."), mcpgo.WithString("text", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("echo: " + req.GetString("text", "")), nil
		})
	s.AddTool(mcpgo.NewTool("image"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultImage("a pixel", base64.StdEncoding.EncodeToString(pixelPNG), "image/png"), nil
	})
	s.AddTool(mcpgo.NewTool("fail"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultError("it broke"), nil
	})
	s.AddTool(mcpgo.NewTool("crash"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		fmt.Fprintln(os.Stderr, "fake: crashing now")
		os.Exit(3)
		return nil, nil
	})
	s.AddTool(mcpgo.NewTool("hang"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		time.Sleep(time.Hour)
		return nil, nil
	})
	s.AddTool(mcpgo.NewTool("add_tool"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		s.AddTool(mcpgo.NewTool("extra", mcpgo.WithDescription("Added later.")), text("extra"))
		return mcpgo.NewToolResultText("added"), nil
	})
	s.AddTool(mcpgo.NewTool("hidden"), text("hidden"))
	s.AddTool(mcpgo.NewTool("ask", mcpgo.WithDescription("Asks the user for a name.")), askUser)
	s.AddTool(mcpgo.NewTool("visit", mcpgo.WithDescription("Sends the user to a page.")), visitPage)
	addFakePromptsAndResources(s)
	addFakeRootsAndSampling(s)
	return s
}

// askUser is the ask tool: it asks the user for a name (an elicitation,
// as input the client answers on a retry; mcp-go's server sends
// elicitation/create instead to clients of the handshake era) and says
// what came back.
func askUser(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	if res := mcpserver.ElicitationResponse(req.Params.InputResponses, "name"); res != nil {
		content, _ := res.Content.(map[string]any)
		name, _ := content["name"].(string)
		return mcpgo.NewToolResultText(fmt.Sprintf("action=%s name=%s", res.Action, name)), nil
	}
	return mcpserver.NewInputRequestBuilder("").Elicit("name", mcpgo.ElicitationParams{
		Mode: mcpgo.ElicitationModeForm, Message: "Who are you?", RequestedSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"name": map[string]any{"type": "string", "description": "Your name"}},
			"required":   []string{"name"},
		}}).ToolResult(), nil
}

// visitPage is the visit tool: a URL-mode elicitation (the user is sent
// to a page) and what came back.
func visitPage(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	if res := mcpserver.ElicitationResponse(req.Params.InputResponses, "page"); res != nil {
		return mcpgo.NewToolResultText(fmt.Sprintf("visit=%s", res.Action)), nil
	}
	return mcpserver.NewInputRequestBuilder("").Elicit("page", mcpgo.ElicitationParams{
		Mode: mcpgo.ElicitationModeURL, Message: "Sign in, please.", ElicitationID: "e1",
		URL: "https://auth.example/sign-in"}).ToolResult(), nil
}

// addFakePromptsAndResources gives the fake server a prompt and resources.
func addFakePromptsAndResources(s *mcpserver.MCPServer) {
	s.AddPrompt(mcpgo.NewPrompt("greet", mcpgo.WithPromptDescription("Greets someone."),
		mcpgo.WithArgument("name", mcpgo.ArgumentDescription("Who to greet"), mcpgo.RequiredArgument())),
		func(_ context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return mcpgo.NewGetPromptResult("greeting", []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("Say hello to "+req.Params.Arguments["name"])),
				mcpgo.NewPromptMessage(mcpgo.RoleAssistant, mcpgo.NewTextContent("Hello!")),
			}), nil
		})
	s.AddResource(mcpgo.NewResource("fake://note", "note", mcpgo.WithMIMEType("text/plain")),
		func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: "fake://note", MIMEType: "text/plain", Text: "a note"}}, nil
		})
	s.AddResource(mcpgo.NewResource("fake://pixel", "pixel", mcpgo.WithMIMEType("image/png")),
		func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.BlobResourceContents{URI: "fake://pixel", MIMEType: "image/png",
				Blob: base64.StdEncoding.EncodeToString(pixelPNG)}}, nil
		})
}

// addFakeRootsAndSampling gives the fake server tools that ask the client
// for its roots and for a completion, and one that counts the roots
// changes the client announced.
func addFakeRootsAndSampling(s *mcpserver.MCPServer) {
	s.EnableSampling()
	var changes atomic.Int32
	s.AddNotificationHandler(string(mcpgo.MethodNotificationRootsListChanged), func(context.Context, mcpgo.JSONRPCNotification) {
		changes.Add(1)
	})
	s.AddTool(mcpgo.NewTool("roots"), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res := mcpserver.RootsResponse(req.Params.InputResponses, "roots")
		if res == nil {
			return mcpserver.NewInputRequestBuilder("").Roots("roots").ToolResult(), nil
		}
		var uris []string
		for _, r := range res.Roots {
			uris = append(uris, r.URI+" ("+r.Name+")")
		}
		return mcpgo.NewToolResultText(strings.Join(uris, "\n")), nil
	})
	s.AddTool(mcpgo.NewTool("roots_changes"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText(fmt.Sprintf("changes=%d", changes.Load())), nil
	})
	s.AddTool(mcpgo.NewTool("sample"), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res := mcpserver.SamplingResponse(req.Params.InputResponses, "sample")
		if res == nil {
			return mcpserver.NewInputRequestBuilder("").Sample("sample", mcpgo.CreateMessageParams{
				Messages:     []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("What is 2+2?")}},
				SystemPrompt: "Answer briefly.", MaxTokens: 50, Temperature: 0.5, StopSequences: []string{"END"},
			}).ToolResult(), nil
		}
		text := ""
		if tc, ok := res.Content.(mcpgo.TextContent); ok {
			text = tc.Text
		} else if m, ok := res.Content.(map[string]any); ok {
			text, _ = m["text"].(string)
		}
		return mcpgo.NewToolResultText(fmt.Sprintf("sampled=%s role=%s model=%s stop=%s", text, res.Role, res.Model, res.StopReason)), nil
	})
}
