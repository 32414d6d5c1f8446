package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/sdktest"
)

// TestControlCanUseTool answers can_use_tool for a write_file call in
// every way the SDK can, and checks the file and what the model is told.
func TestControlCanUseTool(t *testing.T) {
	t.Parallel()
	deny := func(msg string, interrupt bool) sdktest.CanUseToolFunc {
		return func(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
			return sdktest.PermissionResult{Behavior: "deny", Message: msg, Interrupt: interrupt}, nil
		}
	}
	update := func(input map[string]any) sdktest.CanUseToolFunc {
		return func(_ context.Context, req sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
			return sdktest.PermissionResult{Behavior: "allow", UpdatedInput: input}, nil
		}
	}
	tests := []canUseToolCase{
		{name: "allow", answer: allowAll, file: "from the model\n", stop: "end_turn"},
		{name: "allow with updatedInput", answer: update(map[string]any{"file_path": "out.txt", "content": "from the SDK\n"}), file: "from the SDK\n", stop: "end_turn"},
		{name: "updatedInput that is invalid", answer: update(map[string]any{"file_path": "out.txt", "content": 42}), stop: "end_turn", resultErr: true},
		{name: "deny with a message", answer: deny("not in this repository", false), stop: "end_turn", inResult: "not in this repository", resultErr: true},
		{name: "deny with interrupt", answer: deny("stop everything", true), stop: "cancelled"},
		{name: "error response", answer: func(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
			return sdktest.PermissionResult{}, errors.New("the SDK broke")
		}, stop: "end_turn", resultErr: true},
		{name: "malformed answer", answer: func(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
			return sdktest.PermissionResult{Behavior: "perhaps"}, nil
		}, stop: "end_turn", resultErr: true},
		{name: "timeout", args: []string{"--control-timeout", "300ms"}, answer: func(ctx context.Context, _ sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
			<-ctx.Done() // companion gave up (and may cancel) or exited
			return sdktest.PermissionResult{Behavior: "allow"}, nil
		}, stop: "end_turn", resultErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runCanUseToolCase(t, tt)
		})
	}
}

// canUseToolCase is one SDK answer to can_use_tool and what must follow.
type canUseToolCase struct {
	name      string
	answer    sdktest.CanUseToolFunc
	args      []string
	file      string // out.txt afterwards; "" = not written
	stop      string // the result's stop_reason
	inResult  string // in the tool_result's content
	resultErr bool
}

// runCanUseToolCase has the model write out.txt and the SDK answer as tt says.
func runCanUseToolCase(t *testing.T, tt canUseToolCase) {
	ctx := sdkContext(t)
	ws := workspace(t, nil)
	s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"out.txt","content":"from the model\n"}}}]},
		{"chunks":[{"text":"done"}]}],"fallback":"error"}`, ws, sdktest.Options{CanUseTool: tt.answer}, tt.args...)
	r, turn, err := s.Prompt(ctx, "write it")
	must(t, s, err)
	if r.StopReason != tt.stop {
		t.Errorf("stop_reason = %q, want %q: %+v", r.StopReason, tt.stop, r)
	}
	got, _ := os.ReadFile(filepath.Join(ws, "out.txt"))
	if string(got) != tt.file {
		t.Errorf("out.txt = %q, want %q", got, tt.file)
	}
	reqs := s.CanUseToolRequests()
	if len(reqs) != 1 {
		t.Fatalf("can_use_tool sent %d times, want 1", len(reqs))
	}
	q := reqs[0]
	uses := sdktest.FindBlocks(turn, "assistant", "tool_use")
	if len(uses) != 1 || q.ToolName != "write_file" || q.ToolUseID != uses[0].ID || q.Input["file_path"] != "out.txt" || q.Input["content"] != "from the model\n" ||
		q.Title == "" || q.Confirmation["type"] != "edit" || len(q.PermissionSuggestions) == 0 || q.PermissionSuggestions[0].ID == "" {
		t.Errorf("can_use_tool request = %+v", q)
	}
	if tt.stop == "cancelled" {
		closeSDK(ctx, t, s)
		return // the turn stopped: whether a tool_result was sent is not specified
	}
	_, res := toolResult(t, turn)
	if res.IsError != tt.resultErr || !strings.Contains(res.ContentText(), tt.inResult) {
		t.Errorf("tool_result = %+v (%q), want is_error %v containing %q", res, res.ContentText(), tt.resultErr, tt.inResult)
	}
	closeSDK(ctx, t, s)
}

// TestControlUpdatedPermissions: an allow with updatedPermissions allows
// the same call (edits to the same file) for the rest of the session
// without asking.
func TestControlUpdatedPermissions(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	ws := workspace(t, nil)
	always := func(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
		return sdktest.PermissionResult{Behavior: "allow", UpdatedPermissions: []any{map[string]any{
			"type": "addRules", "rules": []any{map[string]any{"toolName": "write_file"}}, "behavior": "allow", "destination": "session"}}}, nil
	}
	s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"a.txt","content":"one"}}}]},
		{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"a.txt","content":"two"}}}]},
		{"chunks":[{"text":"done"}]}],"fallback":"error"}`, ws, sdktest.Options{CanUseTool: always})
	_, _, err := s.Prompt(ctx, "write twice")
	must(t, s, err)
	if n, got := len(s.CanUseToolRequests()), readFile(t, filepath.Join(ws, "a.txt")); n != 1 || got != "two" {
		t.Errorf("asked %d times (want 1); a.txt = %q", n, got)
	}
	closeSDK(ctx, t, s)
}

// TestControlSetPermissionMode validates the mode, announces a change and
// applies it: in yolo no can_use_tool is sent, back in default it is.
func TestControlSetPermissionMode(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	ws := workspace(t, nil)
	deny := func(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
		return sdktest.PermissionResult{Behavior: "deny", Message: "no"}, nil
	}
	s := startSDK(t, `{"turns":[{"match":"first","chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"a.txt","content":"a"}}}]},
		{"match":"second","chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"b.txt","content":"b"}}}]}],"fallback":"echo"}`,
		ws, sdktest.Options{CanUseTool: deny})
	for _, bad := range []any{"sometimes", 5, ""} {
		_, err := s.SetPermissionMode(ctx, bad)
		controlError(t, fmt.Sprintf("set_permission_mode %v", bad), err)
	}
	for _, tt := range []struct{ send, want string }{{"acceptEdits", "auto-edit"}, {"plan", "plan"}, {"bypassPermissions", "yolo"}, {"default", "default"}, {"yolo", "yolo"}} {
		mode, err := s.SetPermissionMode(ctx, tt.send)
		must(t, s, err)
		m, err := s.WaitFor(ctx, func(m sdktest.Message) bool { return m.Is("system", "permission_mode_changed") })
		must(t, s, err)
		if mode != tt.want || m.Map()["permission_mode"] != tt.want {
			t.Errorf("set_permission_mode %s = %q, announced %s; want %s", tt.send, mode, m, tt.want)
		}
	}
	_, _, err := s.Prompt(ctx, "first")
	must(t, s, err)
	if n := len(s.CanUseToolRequests()); n != 0 || !fileExists(ws, "a.txt") {
		t.Errorf("in yolo: asked %d times, a.txt written %v", n, fileExists(ws, "a.txt"))
	}
	_, err = s.SetPermissionMode(ctx, "default")
	must(t, s, err)
	_, _, err = s.Prompt(ctx, "second")
	must(t, s, err)
	if n := len(s.CanUseToolRequests()); n != 1 || fileExists(ws, "b.txt") {
		t.Errorf("back in default: asked %d times (want 1), b.txt written %v", n, fileExists(ws, "b.txt"))
	}
	closeSDK(ctx, t, s)
}

// TestControlHookCallback: a PreToolUse hook hosted by the SDK blocks a
// shell command (in both hook shapes and both blocking answers): the
// command does not run and the reason reaches the model.
func TestControlHookCallback(t *testing.T) {
	t.Parallel()
	mapShape := map[string][]sdktest.HookMatcher{"PreToolUse": {{Matcher: "run_shell_command", HookCallbackIDs: []string{"guard"}}, {Matcher: "read_file", HookCallbackIDs: []string{"unused"}}}}
	listShape := []any{map[string]any{"event": "PreToolUse", "callback_id": "guard", "matcher": "run_shell_command"},
		map[string]any{"event": "PreToolUse", "callback_id": "unused", "matcher": "read_file"}}
	block := map[string]any{"decision": "block", "reason": "no shell in tests"}
	denyOut := map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no shell in tests"}}
	geminiName := map[string][]sdktest.HookMatcher{"BeforeTool": mapShape["PreToolUse"]}
	tests := []struct {
		name  string
		hooks any
		out   map[string]any
	}{{"map shape, block", mapShape, block}, {"list shape, block", listShape, block},
		{"map shape, permissionDecision deny", mapShape, denyOut}, {"Gemini event name", geminiName, block}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := sdkContext(t)
			ws := workspace(t, nil)
			s := startSDK(t, `{"turns":[{"chunks":[`+shellCall("touch ran")+`]},
				{"match":"no shell in tests","chunks":[{"text":"Blocked, fine."}]}],"fallback":"error"}`, ws,
				sdktest.Options{CanUseTool: allowAll, Hooks: map[string]sdktest.HookFunc{"guard": hookAnswer(tt.out), "unused": hookAnswer(map[string]any{})}})
			_, err := s.Initialize(ctx, sdktest.InitializeRequest{Hooks: tt.hooks})
			must(t, s, err)
			r, turn, err := s.Prompt(ctx, "touch it")
			must(t, s, err)
			use, res := toolResult(t, turn)
			if fileExists(ws, "ran") || !res.IsError || !strings.Contains(res.ContentText(), "no shell in tests") || r.Result != "Blocked, fine." {
				t.Errorf("file ran %v; tool_result %+v; result %+v", fileExists(ws, "ran"), res, r)
			}
			calls := s.HookCallbacks()
			if len(calls) != 1 {
				t.Fatalf("hook_callback sent %d times, want 1 (guard only)", len(calls))
			}
			in := calls[0]
			toolInput, _ := in.Input["tool_input"].(map[string]any)
			if in.CallbackID != "guard" || in.ToolUseID != use.ID || in.Input["tool_name"] != "run_shell_command" || toolInput["command"] != "touch ran" ||
				in.Input["hook_event_name"] == nil {
				t.Errorf("hook_callback request = %+v", in)
			}
			closeSDK(ctx, t, s)
		})
	}
}

// TestControlHookTimeoutAndMessage: a PreToolUse callback that never
// answers fails after its timeout and the default policy decides (the SDK
// is asked); a PostToolUse callback's systemMessage reaches the SDK as a
// notice.
func TestControlHookTimeoutAndMessage(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	ws := workspace(t, nil)
	stuck := func(ctx context.Context, _ sdktest.HookInput) (map[string]any, error) {
		<-ctx.Done()
		return map[string]any{"decision": "block", "reason": "too late"}, nil
	}
	s := startSDK(t, `{"turns":[{"chunks":[`+shellCall("touch ran")+`]},{"chunks":[{"text":"ok"}]}],"fallback":"error"}`, ws,
		sdktest.Options{CanUseTool: allowAll, Hooks: map[string]sdktest.HookFunc{"stuck": stuck, "after": hookAnswer(map[string]any{"systemMessage": "HOOK-SAYS-HI"})}})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{Hooks: map[string][]sdktest.HookMatcher{
		"PreToolUse":  {{Matcher: "run_shell_command", HookCallbackIDs: []string{"stuck"}, Timeout: 1}},
		"PostToolUse": {{Matcher: "run_shell_command", HookCallbackIDs: []string{"after"}}}}})
	must(t, s, err)
	r, turn, err := s.Prompt(ctx, "touch it")
	must(t, s, err)
	if _, res := toolResult(t, turn); !fileExists(ws, "ran") || res.IsError || len(s.CanUseToolRequests()) != 1 || r.Result != "ok" {
		t.Errorf("after a timed-out hook: ran %v, asked %d times, tool_result %+v, result %+v", fileExists(ws, "ran"), len(s.CanUseToolRequests()), res, r)
	}
	var notices []string
	for _, m := range turn {
		if m.Is("system", "notice") {
			notices = append(notices, fmt.Sprint(m.Map()["message"]))
		}
	}
	if !slices.ContainsFunc(notices, func(n string) bool { return strings.Contains(n, "HOOK-SAYS-HI") }) {
		t.Errorf("notices = %q, want the PostToolUse hook's systemMessage", notices)
	}
	closeSDK(ctx, t, s)
}

// TestControlBlockedPath: a write outside the project is put to the SDK
// with blocked_path set; denied, nothing is written there.
func TestControlBlockedPath(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	outside := filepath.Join(t.TempDir(), "outside.txt")
	deny := func(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
		return sdktest.PermissionResult{Behavior: "deny", Message: "outside"}, nil
	}
	s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":`+jsonString(outside)+`,"content":"x"}}}]},
		{"chunks":[{"text":"ok"}]}],"fallback":"error"}`, workspace(t, nil), sdktest.Options{CanUseTool: deny}, "--approval-mode", "auto-edit")
	_, _, err := s.Prompt(ctx, "write outside")
	must(t, s, err)
	q := s.CanUseToolRequests()
	if len(q) != 1 || q[0].BlockedPath != outside {
		t.Errorf("can_use_tool requests = %+v, want one with blocked_path %s", q, outside)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("the denied write happened")
	}
	closeSDK(ctx, t, s)
}

// jsonString is s as a JSON string literal.
func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }
