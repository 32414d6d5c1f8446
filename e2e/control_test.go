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
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"companion/internal/sdktest"
)

// Model-facing MCP tool names: mcp_<server>_<tool>, as tools/mcp names
// every server's tools (PROTOCOL.md says name__tool: see run-findings.md).
const (
	calcTool = "mcp_calc_add"
	echoTool = "mcp_everything_echo"
)

// sdkGuard bounds a whole SDK test; a hang guard, not a timing assertion.
const sdkGuard = 90 * time.Second

// guard is a context that ends with the test or after sdkGuard.
func guard(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), sdkGuard)
	t.Cleanup(cancel)
	return ctx
}

// startSDK starts a stream-json session on a script in ws.
func startSDK(t *testing.T, scriptJSON, ws string, o sdktest.Options, args ...string) *sdktest.Session {
	t.Helper()
	o.Bin, o.Dir = binary, ws
	if o.Env == nil {
		o.Env = env(t)
	}
	o.Args = append([]string{"--script", script(t, scriptJSON)}, args...)
	return sdktest.Start(t, o)
}

// finish ends stdin and expects exit code 0 and no protocol violation.
func finish(ctx context.Context, t *testing.T, s *sdktest.Session) {
	t.Helper()
	code, err := s.Close(ctx)
	if err != nil || code != 0 {
		t.Errorf("exit %d (%v), want 0; stderr:\n%s", code, err, s.Stderr())
	}
	for _, p := range s.Problems() {
		t.Error(p)
	}
}

// ok fails the test on err, showing companion's stderr.
func ok(t *testing.T, s *sdktest.Session, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, s.Stderr())
	}
}

// decode unmarshals a control response.
func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("response %s: %v", raw, err)
	}
	return v
}

// calcServer is an SDK-hosted MCP server with one tool, add.
func calcServer(opts ...server.ServerOption) *server.MCPServer {
	srv := server.NewMCPServer("calc", "1.0.0", append(opts, server.WithToolCapabilities(true))...)
	srv.AddTool(mcp.NewTool("add", mcp.WithDescription("Adds two numbers"),
		mcp.WithNumber("a", mcp.Required()), mcp.WithNumber("b", mcp.Required())),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, b := req.GetFloat("a", 0), req.GetFloat("b", 0)
			return mcp.NewToolResultText(fmt.Sprintf("sum=%g", a+b)), nil
		})
	return srv
}

// allow answers every can_use_tool with allow.
func allow(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
	return sdktest.PermissionResult{Behavior: "allow"}, nil
}

// answer is a hook callback that always answers out.
func answer(out map[string]any) sdktest.HookFunc {
	return func(context.Context, sdktest.HookInput) (map[string]any, error) { return out, nil }
}

// toolResult is a turn's first tool_use and the tool_result answering it.
func toolResult(t *testing.T, turn []sdktest.Message) (sdktest.Block, sdktest.Block) {
	t.Helper()
	use, res, found := sdktest.ToolExchange(turn)
	if !found {
		t.Fatalf("want a tool_use and its tool_result; got %q", sdktest.Types(turn))
	}
	return use, res
}

// exists reports whether ws/name exists.
func exists(ws, name string) bool {
	_, err := os.Stat(filepath.Join(ws, name))
	return err == nil
}

// waitFile polls for ws/name (written by a tool companion runs).
func waitFile(ctx context.Context, t *testing.T, ws, name string) {
	t.Helper()
	for !exists(ws, name) {
		select {
		case <-ctx.Done():
			t.Fatalf("%s never appeared", name)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// controlError expects err to be an error control_response with a clear
// one-line message, and returns the message.
func controlError(t *testing.T, what string, err error) string {
	t.Helper()
	msg, isErr := sdktest.ErrorMessage(err)
	if !isErr || msg == "" || strings.Contains(msg, "\n") {
		t.Errorf("%s: want an error response with a one-line message, got %v", what, err)
	}
	return msg
}

// serverStatuses asks mcp_server_status until no server is pending.
func serverStatuses(ctx context.Context, t *testing.T, s *sdktest.Session) map[string]sdktest.ServerStatus {
	t.Helper()
	st, err := s.SettledMCPServers(ctx)
	ok(t, s, err)
	return st
}

const greetCommand = "description = \"Say hello\"\nprompt = \"Say hello to {{args}}\"\n"

// TestControlInitialize sends every initialize field and checks each
// response field and that each was acted on: the SDK server and its tool
// and the agent are announced in system/init, the appended system prompt
// reaches the model, the hook is called, the subagent answers.
func TestControlInitialize(t *testing.T) {
	ctx := guard(t)
	ws := workspace(t, map[string]string{"notes.txt": "remember the milk\n", ".companion/commands/greet.toml": greetCommand})
	s := startSDK(t, `{"turns":[
		{"match":"APPENDED-PROMPT-7","chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"notes.txt"}}}]},
		{"match":"remember the milk","chunks":[{"functionCall":{"name":"delegate_to_agent","args":{"agent":"reviewer","task":"Review the notes"}}}]},
		{"match":"You are the reviewer subagent.","chunks":[{"text":"Reviewed: fine."}]},
		{"match":"Reviewed: fine.","chunks":[{"text":"All done."}]}],"fallback":"error"}`, ws,
		sdktest.Options{CanUseTool: allow, MCPServers: map[string]*server.MCPServer{"calc": calcServer()},
			Hooks: map[string]sdktest.HookFunc{"pre-read": answer(map[string]any{})}},
		"--model", "gemini-2.5-flash")
	resp, err := s.Initialize(ctx, sdktest.InitializeRequest{
		Hooks:              map[string][]sdktest.HookMatcher{"PreToolUse": {{Matcher: "read_file", HookCallbackIDs: []string{"pre-read"}, Timeout: 30}}},
		MCPServers:         map[string]any{"broken": map[string]any{"command": "/bin/false"}},
		Agents:             []any{map[string]any{"name": "reviewer", "description": "Reviews notes", "prompt": "You are the reviewer subagent.", "tools": []string{"read_file"}}},
		AppendSystemPrompt: "Mind the APPENDED-PROMPT-7.",
	})
	ok(t, s, err)
	fields := decode[map[string]json.RawMessage](t, resp.Raw)
	for _, k := range []string{"commands", "capabilities", "model", "models", "permission_mode", "session_id", "companion_version", "output_style"} {
		if _, present := fields[k]; !present {
			t.Errorf("initialize response lacks %s: %s", k, resp.Raw)
		}
	}
	var names []string
	for _, c := range resp.Commands {
		names = append(names, c.Name)
	}
	if resp.Model != "gemini-2.5-flash" || !slices.Contains(sdktest.Names(resp.Models), "gemini-2.5-flash") || resp.PermissionMode != "default" ||
		!strings.HasPrefix(resp.SessionID, "sess_") || resp.CompanionVersion == "" || !slices.Contains(names, "help") || !slices.Contains(names, "greet") {
		t.Errorf("initialize response = %s", resp.Raw)
	}
	initMsg, err := s.WaitFor(ctx, func(m sdktest.Message) bool { return m.Is("system", "init") })
	ok(t, s, err)
	in, _ := initMsg.Init()
	servers := map[string]string{}
	for _, st := range in.MCPServers {
		servers[st.Name] = st.Status
	}
	if initMsg.SessionID != resp.SessionID || in.Model != "gemini-2.5-flash" || servers["calc"] != "connected" || servers["broken"] == "" ||
		!slices.Contains(in.Tools, calcTool) || !slices.Contains(sdktest.Names(in.Agents), "reviewer") || !slices.Contains(sdktest.Names(in.SlashCommands), "greet") {
		t.Errorf("system/init does not show what initialize set up (session %s): %s", resp.SessionID, initMsg)
	}
	r, turn, err := s.Prompt(ctx, "Review my notes")
	ok(t, s, err)
	if r.Subtype != "success" || r.Result != "All done." {
		t.Errorf("result = %+v\n%q", r, sdktest.Types(turn))
	}
	hooks := s.Requests("hook_callback")
	if len(hooks) != 1 || !strings.Contains(string(hooks[0].Body), `"pre-read"`) || !strings.Contains(string(hooks[0].Body), "notes.txt") {
		t.Errorf("hook_callback requests = %+v", hooks)
	}
	finish(ctx, t, s)
}

// TestControlSystemPrompt: initialize's systemPrompt replaces companion's
// base instructions (the first turn answers only a request that still has
// them).
func TestControlSystemPrompt(t *testing.T) {
	ctx := guard(t)
	s := startSDK(t, `{"turns":[{"match":"You are companion, an AI coding agent","chunks":[{"text":"BASE KEPT"}]},
		{"match":"You are SYSTEM-PROMPT-9.","chunks":[{"text":"REPLACED"}]}],"fallback":"error"}`, workspace(t, nil), sdktest.Options{})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{SystemPrompt: "You are SYSTEM-PROMPT-9."})
	ok(t, s, err)
	r, _, err := s.Prompt(ctx, "who are you?")
	ok(t, s, err)
	if r.Result != "REPLACED" {
		t.Errorf("systemPrompt not applied: %+v", r)
	}
	finish(ctx, t, s)
}

// TestControlInterrupt interrupts a turn while a tool runs (sleep 30): the
// turn ends cancelled long before the sleep would, and the session takes
// the next prompt.
func TestControlInterrupt(t *testing.T) {
	ctx := guard(t)
	ws := workspace(t, nil)
	s := startSDK(t, `{"turns":[{"chunks":[`+shellCall("touch started && sleep 30")+`]},
		{"match":"second prompt","chunks":[{"text":"Still here."}]}],"fallback":"error"}`, ws, sdktest.Options{CanUseTool: allow})
	from := s.Len()
	ok(t, s, s.SendUser("run the slow command"))
	waitFile(ctx, t, ws, "started")
	quick, cancel := context.WithTimeout(ctx, 20*time.Second) // < the sleep: a hang guard that also proves the kill
	defer cancel()
	ok(t, s, s.Interrupt(quick))
	m, _, err := s.WaitFrom(quick, from, func(m sdktest.Message) bool { return m.Type == "result" })
	ok(t, s, err)
	if r, _ := m.Result(); r.StopReason != "cancelled" {
		t.Errorf("result after interrupt = %s", m)
	}
	r, _, err := s.Prompt(ctx, "second prompt")
	ok(t, s, err)
	if r.Subtype != "success" || r.Result != "Still here." {
		t.Errorf("prompt after interrupt = %+v", r)
	}
	finish(ctx, t, s)
}

// assistantModel is the model of the last assistant message of a turn.
func assistantModel(turn []sdktest.Message) string {
	model := ""
	for _, m := range turn {
		if c, err := m.Chat(); err == nil && m.Type == "assistant" {
			model = c.Model
		}
	}
	return model
}

// TestControlSetModel switches the model mid-session: the next request
// goes to it and the change is announced; a bad name is refused and
// changes nothing.
func TestControlSetModel(t *testing.T) {
	ctx := guard(t)
	s := startSDK(t, `{"turns":[],"fallback":"echo"}`, workspace(t, nil), sdktest.Options{}, "--model", "gemini-2.5-pro")
	_, turn, err := s.Prompt(ctx, "one")
	ok(t, s, err)
	if got := assistantModel(turn); got != "gemini-2.5-pro" {
		t.Errorf("first model = %q", got)
	}
	ch, err := s.SetModel(ctx, "gemini-2.5-flash")
	ok(t, s, err)
	if ch.Model != "gemini-2.5-flash" || ch.PreviousModel != "gemini-2.5-pro" {
		t.Errorf("set_model response = %+v", ch)
	}
	m, err := s.WaitFor(ctx, func(m sdktest.Message) bool { return m.Is("system", "model_changed") })
	ok(t, s, err)
	if v := m.Map(); v["model"] != "gemini-2.5-flash" || v["previous_model"] != "gemini-2.5-pro" {
		t.Errorf("model_changed = %s", m)
	}
	_, turn, err = s.Prompt(ctx, "two")
	ok(t, s, err)
	if got := assistantModel(turn); got != "gemini-2.5-flash" {
		t.Errorf("model after set_model = %q", got)
	}
	for _, bad := range []any{"no such model!", 42, ""} {
		_, err := s.SetModel(ctx, bad)
		controlError(t, fmt.Sprintf("set_model %v", bad), err)
	}
	_, turn, err = s.Prompt(ctx, "three")
	ok(t, s, err)
	if got := assistantModel(turn); got != "gemini-2.5-flash" {
		t.Errorf("model after refused set_model = %q", got)
	}
	for _, m := range turn {
		if m.Is("system", "model_changed") {
			t.Errorf("a refused set_model was announced: %s", m)
		}
	}
	finish(ctx, t, s)
}

// TestControlSetModelRollback: a model outside the offered list is tried;
// when its first request fails, the session goes back to the previous
// model, announces it with a reason, and the request is answered by it.
func TestControlSetModelRollback(t *testing.T) {
	ctx := guard(t)
	s := startSDK(t, `{"turns":[{"match":"this fails","status":404,"message":"model not found"}],"fallback":"echo"}`,
		workspace(t, nil), sdktest.Options{}, "--model", "gemini-2.5-pro")
	ch, err := s.SetModel(ctx, "custom-model-x")
	ok(t, s, err)
	if ch.Model != "custom-model-x" || ch.PreviousModel != "gemini-2.5-pro" {
		t.Errorf("set_model response = %+v", ch)
	}
	r, turn, err := s.Prompt(ctx, "this fails")
	ok(t, s, err)
	var back []sdktest.Message
	for _, m := range turn {
		if m.Is("system", "model_changed") {
			back = append(back, m)
		}
	}
	if len(back) != 1 {
		t.Fatalf("want one model_changed back to gemini-2.5-pro during the failing turn; turn %q", sdktest.Types(turn))
	}
	if v := back[0].Map(); v["model"] != "gemini-2.5-pro" || v["previous_model"] != "custom-model-x" || v["reason"] == nil || v["reason"] == "" {
		t.Errorf("rollback announcement = %s", back[0])
	}
	if r.IsError || assistantModel(turn) != "gemini-2.5-pro" {
		t.Errorf("the request was not answered by the previous model: %+v, model %q", r, assistantModel(turn))
	}
	_, turn, err = s.Prompt(ctx, "after")
	ok(t, s, err)
	if got := assistantModel(turn); got != "gemini-2.5-pro" {
		t.Errorf("model after rollback = %q", got)
	}
	finish(ctx, t, s)
}

// TestControlSupportedCommands lists the built-in and the project's file
// commands, the same list initialize gave.
func TestControlSupportedCommands(t *testing.T) {
	ctx := guard(t)
	s := startSDK(t, `{"turns":[]}`, workspace(t, map[string]string{".companion/commands/greet.toml": greetCommand}), sdktest.Options{})
	init, err := s.Initialize(ctx, sdktest.InitializeRequest{})
	ok(t, s, err)
	cmds, err := s.SupportedCommands(ctx)
	ok(t, s, err)
	byName := map[string]sdktest.Command{}
	for _, c := range cmds {
		byName[c.Name] = c
		if c.Name == "" || c.Description == "" {
			t.Errorf("command without name or description: %+v", c)
		}
	}
	if byName["greet"].Description != "Say hello" || byName["greet"].ArgumentHint == "" || byName["model"].ArgumentHint == "" || byName["help"].Name == "" {
		t.Errorf("supported_commands = %+v", cmds)
	}
	if len(cmds) != len(init.Commands) {
		t.Errorf("supported_commands has %d commands, initialize %d", len(cmds), len(init.Commands))
	}
	finish(ctx, t, s)
}

// TestControlCanUseTool answers can_use_tool for a write_file call in
// every way the SDK can, and checks the file and what the model is told.
func TestControlCanUseTool(t *testing.T) {
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
	tests := []struct {
		name      string
		answer    sdktest.CanUseToolFunc
		args      []string
		file      string // out.txt afterwards; "" = not written
		stop      string // the result's stop_reason
		inResult  string // in the tool_result's content
		resultErr bool
	}{
		{name: "allow", answer: allow, file: "from the model\n", stop: "end_turn"},
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
			ctx := guard(t)
			ws := workspace(t, nil)
			s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"out.txt","content":"from the model\n"}}}]},
				{"chunks":[{"text":"done"}]}],"fallback":"error"}`, ws, sdktest.Options{CanUseTool: tt.answer}, tt.args...)
			r, turn, err := s.Prompt(ctx, "write it")
			ok(t, s, err)
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
				finish(ctx, t, s)
				return // the turn stopped: whether a tool_result was sent is not specified
			}
			_, res := toolResult(t, turn)
			if res.IsError != tt.resultErr || !strings.Contains(res.ContentText(), tt.inResult) {
				t.Errorf("tool_result = %+v (%q), want is_error %v containing %q", res, res.ContentText(), tt.resultErr, tt.inResult)
			}
			finish(ctx, t, s)
		})
	}
}

// TestControlUpdatedPermissions: an allow with updatedPermissions allows
// the same call (edits to the same file) for the rest of the session
// without asking.
func TestControlUpdatedPermissions(t *testing.T) {
	ctx := guard(t)
	ws := workspace(t, nil)
	always := func(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
		return sdktest.PermissionResult{Behavior: "allow", UpdatedPermissions: []any{map[string]any{
			"type": "addRules", "rules": []any{map[string]any{"toolName": "write_file"}}, "behavior": "allow", "destination": "session"}}}, nil
	}
	s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"a.txt","content":"one"}}}]},
		{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"a.txt","content":"two"}}}]},
		{"chunks":[{"text":"done"}]}],"fallback":"error"}`, ws, sdktest.Options{CanUseTool: always})
	_, _, err := s.Prompt(ctx, "write twice")
	ok(t, s, err)
	if n, got := len(s.CanUseToolRequests()), readFile(t, filepath.Join(ws, "a.txt")); n != 1 || got != "two" {
		t.Errorf("asked %d times (want 1); a.txt = %q", n, got)
	}
	finish(ctx, t, s)
}

// TestControlSetPermissionMode validates the mode, announces a change and
// applies it: in yolo no can_use_tool is sent, back in default it is.
func TestControlSetPermissionMode(t *testing.T) {
	ctx := guard(t)
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
		ok(t, s, err)
		m, err := s.WaitFor(ctx, func(m sdktest.Message) bool { return m.Is("system", "permission_mode_changed") })
		ok(t, s, err)
		if mode != tt.want || m.Map()["permission_mode"] != tt.want {
			t.Errorf("set_permission_mode %s = %q, announced %s; want %s", tt.send, mode, m, tt.want)
		}
	}
	_, _, err := s.Prompt(ctx, "first")
	ok(t, s, err)
	if n := len(s.CanUseToolRequests()); n != 0 || !exists(ws, "a.txt") {
		t.Errorf("in yolo: asked %d times, a.txt written %v", n, exists(ws, "a.txt"))
	}
	_, err = s.SetPermissionMode(ctx, "default")
	ok(t, s, err)
	_, _, err = s.Prompt(ctx, "second")
	ok(t, s, err)
	if n := len(s.CanUseToolRequests()); n != 1 || exists(ws, "b.txt") {
		t.Errorf("back in default: asked %d times (want 1), b.txt written %v", n, exists(ws, "b.txt"))
	}
	finish(ctx, t, s)
}

// TestControlMCPServerStatus reports the real state of an SDK-hosted
// server, a stdio server, one that exits at once and an unreachable HTTP
// one.
func TestControlMCPServerStatus(t *testing.T) {
	entry := everything(t)
	ctx := guard(t)
	s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"`+echoTool+`","args":{"message":"hello stdio"}}}]},
		{"match":"Echo: hello stdio","chunks":[{"text":"Echoed."}]}],"fallback":"error"}`, workspace(t, nil),
		sdktest.Options{CanUseTool: allow, MCPServers: map[string]*server.MCPServer{"calc": calcServer()}})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{MCPServers: map[string]any{
		"everything": map[string]any{"command": "node", "args": []string{entry, "stdio"}},
		"broken":     map[string]any{"command": "/bin/false"},
		"nowhere":    map[string]any{"url": "http://127.0.0.1:9/mcp"},
	}})
	ok(t, s, err)
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
	ok(t, s, err)
	if _, res := toolResult(t, turn); r.Result != "Echoed." || res.IsError {
		t.Errorf("the stdio server's tool: %+v, %+v", res, r)
	}
	finish(ctx, t, s)
}

// TestControlSDKMCPServer: the model calls the SDK-hosted server's tool,
// companion routes it through mcp_message, the answer reaches the
// tool_result; a notification from the SDK's server (tools changed) makes
// companion list the tools again.
func TestControlSDKMCPServer(t *testing.T) {
	ctx := guard(t)
	calc := calcServer()
	s := startSDK(t, `{"turns":[{"chunks":[{"functionCall":{"name":"`+calcTool+`","args":{"a":2,"b":3}}}]},
		{"match":"sum=5","chunks":[{"text":"The sum is 5."}]}],"fallback":"error"}`,
		workspace(t, nil), sdktest.Options{CanUseTool: allow, MCPServers: map[string]*server.MCPServer{"calc": calc}})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{})
	ok(t, s, err)
	r, turn, err := s.Prompt(ctx, "add 2 and 3")
	ok(t, s, err)
	use, res := toolResult(t, turn)
	if r.Result != "The sum is 5." || use.Name != calcTool || res.IsError || !strings.Contains(res.ContentText(), "sum=5") {
		t.Errorf("result %+v; tool_use %+v; tool_result %+v", r, use, res)
	}
	if q := s.CanUseToolRequests(); len(q) != 1 || q[0].ToolName != calcTool || q[0].Confirmation["type"] != "mcp" {
		t.Errorf("the SDK server's tool skipped the permission policy: %+v", q)
	}
	methods := s.MCPMethods("calc")
	for _, want := range []string{"initialize", "tools/list", "tools/call"} {
		if !slices.Contains(methods, want) {
			t.Errorf("companion sent %q to the SDK server, no %s", methods, want)
		}
	}
	calc.AddTool(mcp.NewTool("mul", mcp.WithDescription("Multiplies")), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("product"), nil
	})
	ok(t, s, s.NotifyMCP(ctx, "calc", map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}))
	for !slices.Contains(serverStatuses(ctx, t, s)["calc"].Tools, "mul") {
		select {
		case <-ctx.Done():
			t.Fatalf("the tool list never changed after notifications/tools/list_changed; methods %q", s.MCPMethods("calc"))
		case <-time.After(50 * time.Millisecond):
		}
	}
	err = s.NotifyMCP(ctx, "nosuchserver", map[string]any{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
	controlError(t, "mcp_message to an unknown server", err)
	finish(ctx, t, s)
}

// TestControlHookCallback: a PreToolUse hook hosted by the SDK blocks a
// shell command (in both hook shapes and both blocking answers): the
// command does not run and the reason reaches the model.
func TestControlHookCallback(t *testing.T) {
	mapShape := map[string][]sdktest.HookMatcher{"PreToolUse": {{Matcher: "run_shell_command", HookCallbackIDs: []string{"guard"}}, {Matcher: "read_file", HookCallbackIDs: []string{"unused"}}}}
	listShape := []any{map[string]any{"event": "PreToolUse", "callback_id": "guard", "matcher": "run_shell_command"},
		map[string]any{"event": "PreToolUse", "callback_id": "unused", "matcher": "read_file"}}
	block := map[string]any{"decision": "block", "reason": "no shell in tests"}
	denyOut := map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no shell in tests"}}
	tests := []struct {
		name  string
		hooks any
		out   map[string]any
	}{{"map shape, block", mapShape, block}, {"list shape, block", listShape, block}, {"map shape, permissionDecision deny", mapShape, denyOut}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := guard(t)
			ws := workspace(t, nil)
			s := startSDK(t, `{"turns":[{"chunks":[`+shellCall("touch ran")+`]},
				{"match":"no shell in tests","chunks":[{"text":"Blocked, fine."}]}],"fallback":"error"}`, ws,
				sdktest.Options{CanUseTool: allow, Hooks: map[string]sdktest.HookFunc{"guard": answer(tt.out), "unused": answer(map[string]any{})}})
			_, err := s.Initialize(ctx, sdktest.InitializeRequest{Hooks: tt.hooks})
			ok(t, s, err)
			r, turn, err := s.Prompt(ctx, "touch it")
			ok(t, s, err)
			use, res := toolResult(t, turn)
			if exists(ws, "ran") || !res.IsError || !strings.Contains(res.ContentText(), "no shell in tests") || r.Result != "Blocked, fine." {
				t.Errorf("file ran %v; tool_result %+v; result %+v", exists(ws, "ran"), res, r)
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
			finish(ctx, t, s)
		})
	}
}

// TestControlCancelRequest: an interrupt while can_use_tool is pending
// makes companion cancel its own request (control_cancel_request) and
// ignore the SDK's late allow; a control_cancel_request from the SDK for
// a request still running answers it once, with "cancelled".
func TestControlCancelRequest(t *testing.T) {
	ctx := guard(t)
	ws := workspace(t, nil)
	cancelled := make(chan string, 1)
	late := func(ctx context.Context, req sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
		<-ctx.Done() // companion's control_cancel_request (or its exit)
		cancelled <- req.RequestID
		return sdktest.PermissionResult{Behavior: "allow"}, nil // the late answer
	}
	s := startSDK(t, `{"turns":[{"match":"write it","chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"out.txt","content":"x"}}}]}],"fallback":"echo"}`,
		ws, sdktest.Options{CanUseTool: late})
	from := s.Len()
	ok(t, s, s.SendUser("write it"))
	_, err := s.WaitFor(ctx, func(m sdktest.Message) bool { return m.Type == "control_request" })
	ok(t, s, err)
	ok(t, s, s.Interrupt(ctx))
	var id string
	select {
	case id = <-cancelled:
	case <-ctx.Done():
		t.Fatalf("companion never cancelled its can_use_tool request; it sent %q", sdktest.Types(s.Messages()))
	}
	if !slices.Contains(s.Cancels(), id) {
		t.Errorf("no control_cancel_request for %s (cancels %q)", id, s.Cancels())
	}
	m, _, err := s.WaitFrom(ctx, from, func(m sdktest.Message) bool { return m.Type == "result" })
	ok(t, s, err)
	if r, _ := m.Result(); r.StopReason != "cancelled" {
		t.Errorf("result = %s", m)
	}
	r, _, err := s.Prompt(ctx, "after the late answer")
	ok(t, s, err)
	if exists(ws, "out.txt") || r.Subtype != "success" {
		t.Errorf("late allow honoured (out.txt %v) or session broken: %+v", exists(ws, "out.txt"), r)
	}
	// From the SDK: cancel a request still in flight, and one that does not exist.
	p, err := s.StartRequest("get_context_usage", nil)
	ok(t, s, err)
	ok(t, s, s.CancelRequest(p.ID))
	if _, err := p.Wait(ctx); err != nil {
		if msg := controlError(t, "cancelled request", err); msg != "cancelled" {
			t.Errorf("a cancelled request's error = %q, want \"cancelled\"", msg)
		}
	}
	ok(t, s, s.CancelRequest("sdk_req_never_sent"))
	r, _, err = s.Prompt(ctx, "still alive?")
	ok(t, s, err)
	if r.Subtype != "success" {
		t.Errorf("after cancelling an unknown request: %+v", r)
	}
	finish(ctx, t, s) // also fails on a second answer to the cancelled request
}

// TestControlMalformed writes broken lines: each gets a clear error (a
// control_response when it carries a request_id, else a system/notice)
// and the session goes on.
func TestControlMalformed(t *testing.T) {
	ctx := guard(t)
	s := startSDK(t, `{"turns":[{"match":"still there?","chunks":[{"text":"Yes."}]}],"fallback":"error"}`, workspace(t, nil), sdktest.Options{})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{})
	ok(t, s, err)
	tests := []struct {
		name, line string
		id         string // the request_id of the error response; "" = a notice
		want       string // in the error text
	}{
		{"not JSON", `this is not json`, "", ""},
		{"JSON but not an object", `[1,2,3]`, "", ""},
		{"unknown type", `{"type":"no_such_type"}`, "", "no_such_type"},
		{"user message with bad content", `{"type":"user","message":{"role":"user","content":42}}`, "", ""},
		{"unknown subtype", `{"type":"control_request","request_id":"m1","request":{"subtype":"no_such_subtype"}}`, "m1", "no_such_subtype"},
		{"missing request_id", `{"type":"control_request","request":{"subtype":"supported_commands"}}`, "", "request_id"},
		{"request is not an object", `{"type":"control_request","request_id":"m2","request":"set_model"}`, "m2", ""},
		{"no request", `{"type":"control_request","request_id":"m3"}`, "m3", ""},
		{"no subtype", `{"type":"control_request","request_id":"m4","request":{}}`, "m4", "subtype"},
		{"model of the wrong type", `{"type":"control_request","request_id":"m5","request":{"subtype":"set_model","model":42}}`, "m5", "model"},
		{"mode of the wrong type", `{"type":"control_request","request_id":"m6","request":{"subtype":"set_permission_mode","mode":["yolo"]}}`, "m6", "mode"},
		{"second initialize", `{"type":"control_request","request_id":"m7","request":{"subtype":"initialize"}}`, "m7", "initialize"},
		{"mcp_message without server", `{"type":"control_request","request_id":"m8","request":{"subtype":"mcp_message","message":{"jsonrpc":"2.0","method":"x"}}}`, "m8", ""},
	}
	for _, tt := range tests {
		from := s.Len()
		var p *sdktest.Pending
		if tt.id != "" {
			p = s.Expect(tt.id)
		}
		ok(t, s, s.Write([]byte(tt.line)))
		var text string
		if p != nil {
			_, err := p.Wait(ctx)
			text = controlError(t, tt.name, err)
		} else {
			m, _, err := s.WaitFrom(ctx, from, func(m sdktest.Message) bool { return m.Is("system", "notice") })
			ok(t, s, err)
			v := m.Map()
			text, _ = v["message"].(string)
			if v["level"] != "error" || text == "" {
				t.Errorf("%s: notice = %s", tt.name, m)
			}
		}
		if !strings.Contains(text, tt.want) {
			t.Errorf("%s: error %q does not mention %q", tt.name, text, tt.want)
		}
	}
	r, _, err := s.Prompt(ctx, "still there?")
	ok(t, s, err)
	if r.Result != "Yes." {
		t.Errorf("after malformed input: %+v", r)
	}
	finish(ctx, t, s)
}

// TestControlStreamInput: content blocks as a prompt, prompts queued while
// a turn runs, user messages not echoed, get_context_usage, initialize
// refused after a prompt, and answers flushed when stdin ends at once.
func TestControlStreamInput(t *testing.T) {
	ctx := guard(t)
	s := startSDK(t, `{"turns":[{"match":"block prompt","chunks":[{"text":"Blocks seen."}]}],"fallback":"echo"}`, workspace(t, nil), sdktest.Options{})
	isResult := func(m sdktest.Message) bool { return m.Type == "result" }
	ok(t, s, s.SendUserContent([]any{map[string]any{"type": "text", "text": "block prompt"}}))
	m, _, err := s.WaitFrom(ctx, 0, isResult)
	ok(t, s, err)
	if r, _ := m.Result(); r.Result != "Blocks seen." {
		t.Errorf("content-block prompt: %s", m)
	}
	_, err = s.Initialize(ctx, sdktest.InitializeRequest{})
	controlError(t, "initialize after a prompt", err)
	from := s.Len()
	ok(t, s, s.SendUser("first queued"))
	ok(t, s, s.SendUser("second queued"))
	first, i, err := s.WaitFrom(ctx, from, isResult)
	ok(t, s, err)
	second, _, err := s.WaitFrom(ctx, i+1, isResult)
	ok(t, s, err)
	r1, _ := first.Result()
	r2, _ := second.Result()
	if !strings.HasSuffix(r1.Result, "first queued") || !strings.HasSuffix(r2.Result, "second queued") {
		t.Errorf("queued prompts answered %q then %q", r1.Result, r2.Result)
	}
	if texts := sdktest.FindBlocks(s.Messages(), "user", "text"); len(texts) != 0 {
		t.Errorf("user messages echoed: %+v", texts)
	}
	u, err := s.ContextUsage(ctx)
	ok(t, s, err)
	if u.Size <= 0 || u.Used <= 0 || u.Percent <= 0 || u.Percent > 100 {
		t.Errorf("get_context_usage = %+v", u)
	}
	p, err := s.StartRequest("supported_commands", nil)
	ok(t, s, err)
	from = s.Len()
	ok(t, s, s.SendUser("last words"))
	code, err := s.Close(ctx)
	if err != nil || code != 0 {
		t.Errorf("exit %d (%v) after stdin ended; stderr:\n%s", code, err, s.Stderr())
	}
	if _, err := p.Wait(ctx); err != nil {
		t.Errorf("the request sent just before stdin ended: %v", err)
	}
	if m, _, err := s.WaitFrom(ctx, from, isResult); err != nil {
		t.Errorf("the prompt sent just before stdin ended got no result: %v", err)
	} else if r, _ := m.Result(); !strings.HasSuffix(r.Result, "last words") {
		t.Errorf("last result = %s", m)
	}
	for _, p := range s.Problems() {
		t.Error(p)
	}
}
