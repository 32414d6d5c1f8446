package sdktest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The test binary doubles as a fake companion (SDKTEST_FAKE=1), so the SDK
// is tested without the real binary.
func TestMain(m *testing.M) {
	if os.Getenv("SDKTEST_FAKE") == "1" {
		fakeCompanion()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeCompanion answers a few requests and, per user message, asks the
// SDK one question and reports the answer in a result.
func fakeCompanion() {
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	next := func() map[string]any {
		for in.Scan() {
			var m map[string]any
			if json.Unmarshal(in.Bytes(), &m) == nil {
				return m
			}
		}
		return nil
	}
	// ask sends a control request and reads lines until its answer.
	ask := func(id string, req map[string]any, cancel bool) string {
		out.Encode(map[string]any{"type": "control_request", "request_id": id, "request": req})
		if cancel {
			out.Encode(map[string]any{"type": "control_cancel_request", "request_id": id})
		}
		for m := next(); m != nil; m = next() {
			if resp, _ := m["response"].(map[string]any); m["type"] == "control_response" && resp["request_id"] == id {
				b, _ := json.Marshal(resp)
				return string(b)
			}
		}
		return ""
	}
	msg := func(typ string, fields map[string]any) {
		fields["type"], fields["uuid"], fields["session_id"] = typ, fmt.Sprint(time.Now().UnixNano()), "sess_fake"
		out.Encode(fields)
	}
	for m := next(); m != nil; m = next() {
		switch m["type"] {
		case "control_request":
			req, _ := m["request"].(map[string]any)
			resp := map[string]any{"subtype": "success", "request_id": m["request_id"], "response": map[string]any{"model": "fake", "session_id": "sess_fake"}}
			if req["subtype"] == "set_model" {
				resp = map[string]any{"subtype": "error", "request_id": m["request_id"], "error": "no such model"}
			}
			out.Encode(map[string]any{"type": "control_response", "response": resp})
		case "user":
			text := m["message"].(map[string]any)["content"].(string)
			var answer string
			switch text {
			case "ask", "cancel":
				answer = ask("c_"+text, map[string]any{"subtype": "can_use_tool", "tool_name": "write_file", "input": map[string]any{"file_path": "a"}}, text == "cancel")
			case "hook":
				answer = ask("h", map[string]any{"subtype": "hook_callback", "callback_id": "guard", "input": map[string]any{"tool_name": "x"}}, false)
			case "mcp":
				answer = ask("m", map[string]any{"subtype": "mcp_message", "server_name": "calc",
					"message": map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": "add", "arguments": map[string]any{"a": 2, "b": 3}}}}, false)
			case "garbage":
				fmt.Println("not json")
			}
			msg("assistant", map[string]any{"message": map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "text", "text": answer}}}})
			msg("result", map[string]any{"subtype": "success", "result": answer})
		}
	}
}

func start(t *testing.T, o Options) *Session {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	o.Bin, o.Env = exe, append(os.Environ(), "SDKTEST_FAKE=1")
	return Start(t, o)
}

func TestSessionAgainstFake(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	calc := server.NewMCPServer("calc", "1", server.WithToolCapabilities(false))
	calc.AddTool(mcp.NewTool("add", mcp.WithNumber("a"), mcp.WithNumber("b")), func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(fmt.Sprint(r.GetFloat("a", 0) + r.GetFloat("b", 0))), nil
	})
	baseline := runtime.NumGoroutine()
	cancelled := make(chan struct{})
	s := start(t, Options{
		CanUseTool: func(ctx context.Context, req CanUseToolRequest) (PermissionResult, error) {
			if req.RequestID == "c_cancel" {
				<-ctx.Done()
				close(cancelled)
			}
			return PermissionResult{Behavior: "allow", Message: req.ToolName}, nil
		},
		Hooks: map[string]HookFunc{"guard": func(context.Context, HookInput) (map[string]any, error) {
			return map[string]any{"decision": "block"}, nil
		}},
		MCPServers: map[string]*server.MCPServer{"calc": calc},
	})
	init, err := s.Initialize(ctx, InitializeRequest{})
	if err != nil || init.Model != "fake" || init.SessionID != "sess_fake" {
		t.Fatalf("initialize = %+v, %v", init, err)
	}
	var ce *ControlError
	if _, err := s.SetModel(ctx, "x"); !errors.As(err, &ce) || ce.Message != "no such model" {
		t.Errorf("set_model error = %v", err)
	}
	for prompt, want := range map[string]string{"ask": `"behavior":"allow"`, "hook": `"decision":"block"`, "mcp": `"text":"5"`, "cancel": `"behavior":"allow"`} {
		r, turn, err := s.Prompt(ctx, prompt)
		if err != nil || !strings.Contains(r.Result, want) || AssistantText(turn) != r.Result {
			t.Errorf("%s: result %q (%v), want %s", prompt, r.Result, err, want)
		}
	}
	select {
	case <-cancelled:
	case <-ctx.Done():
		t.Fatal("the cancelled handler's context never ended")
	}
	if got := s.Cancels(); len(got) != 1 || got[0] != "c_cancel" || len(s.Requests("can_use_tool")) != 2 {
		t.Errorf("cancels %q, requests %+v", got, s.Requests(""))
	}
	if _, _, err := s.Prompt(ctx, "garbage"); err != nil || len(s.Problems()) != 1 {
		t.Errorf("problems = %q (%v)", s.Problems(), err)
	}
	if code, err := s.Close(ctx); code != 0 || err != nil {
		t.Errorf("exit %d, %v", code, err)
	}
	if _, err := s.WaitFor(ctx, func(m Message) bool { return m.Type == "no such type" }); !errors.Is(err, ErrExited) {
		t.Errorf("WaitFor after exit = %v", err)
	}
	if _, err := s.Request(ctx, "interrupt", nil); err == nil {
		t.Errorf("a request after exit succeeded")
	}
	s.Kill()
	for runtime.NumGoroutine() > baseline { // exec's own goroutines may take a moment to return
		select {
		case <-ctx.Done():
			t.Fatalf("%d goroutines left, %d before the session", runtime.NumGoroutine(), baseline)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
