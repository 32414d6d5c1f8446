package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"companion/internal/testkit/sdktest"
)

// sdkGuard bounds a whole SDK test; a hang guard, not a timing assertion.
const sdkGuard = 90 * time.Second

// sdkContext is a context that ends with the test or after sdkGuard.
func sdkContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), sdkGuard)
	t.Cleanup(cancel)
	return ctx
}

// startSDK starts a stream-json session on a script in ws: the real binary
// on purpose, as `companion run`'s argv, working directory and exit code.
func startSDK(t *testing.T, scriptJSON, ws string, o sdktest.Options, args ...string) *sdktest.Session {
	t.Helper()
	o.Bin, o.Dir = companionBin(t), ws
	if o.Env == nil {
		o.Env = env(t)
	}
	o.Args = append([]string{"--script", script(t, scriptJSON)}, args...)
	return sdktest.Start(t, o)
}

// closeSDK ends stdin and expects exit code 0 and no protocol violation.
func closeSDK(ctx context.Context, t *testing.T, s *sdktest.Session) {
	t.Helper()
	code, err := s.Close(ctx)
	if err != nil || code != 0 {
		t.Errorf("exit %d (%v), want 0; stderr:\n%s", code, err, s.Stderr())
	}
	for _, p := range s.Problems() {
		t.Error(p)
	}
}

// must fails the test on err, showing companion's stderr.
func must(t *testing.T, s *sdktest.Session, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%v\nstderr:\n%s", err, s.Stderr())
	}
}

// decodeJSON unmarshals a control response.
func decodeJSON[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("response %s: %v", raw, err)
	}
	return v
}

// allowAll answers every can_use_tool with allow.
func allowAll(context.Context, sdktest.CanUseToolRequest) (sdktest.PermissionResult, error) {
	return sdktest.PermissionResult{Behavior: "allow"}, nil
}

// hookAnswer is a hook callback that always answers out.
func hookAnswer(out map[string]any) sdktest.HookFunc {
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

// fileExists reports whether ws/name exists.
func fileExists(ws, name string) bool {
	_, err := os.Stat(filepath.Join(ws, name))
	return err == nil
}

// waitFile polls for ws/name (written by a tool companion runs).
func waitFile(ctx context.Context, t *testing.T, ws, name string) {
	t.Helper()
	for !fileExists(ws, name) {
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

const greetCommand = "description = \"Say hello\"\nprompt = \"Say hello to {{args}}\"\n"

// TestControlInitialize sends every initialize field and checks each
// response field and that each was acted on: the SDK server and its tool
// and the agent are announced in system/init, the appended system prompt
// reaches the model, the hook is called, the subagent answers.
func TestControlInitialize(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	ws := workspace(t, map[string]string{"notes.txt": "remember the milk\n", ".companion/commands/greet.toml": greetCommand})
	s := startSDK(t, `{"turns":[
		{"match":"APPENDED-PROMPT-7","chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"notes.txt"}}}]},
		{"match":"remember the milk","chunks":[{"functionCall":{"name":"delegate_to_agent","args":{"agent":"reviewer","task":"Review the notes"}}}]},
		{"match":"You are the reviewer subagent.","chunks":[{"text":"Reviewed: fine."}]},
		{"match":"Reviewed: fine.","chunks":[{"text":"All done."}]}],"fallback":"error"}`, ws,
		sdktest.Options{CanUseTool: allowAll, MCPServers: map[string]*server.MCPServer{"calc": calcServer()},
			Hooks: map[string]sdktest.HookFunc{"pre-read": hookAnswer(map[string]any{})}},
		"--model", "gemini-2.5-flash")
	resp, err := s.Initialize(ctx, sdktest.InitializeRequest{
		Hooks:              map[string][]sdktest.HookMatcher{"PreToolUse": {{Matcher: "read_file", HookCallbackIDs: []string{"pre-read"}, Timeout: 30}}},
		MCPServers:         map[string]any{"broken": map[string]any{"command": "/bin/false"}},
		Agents:             []any{map[string]any{"name": "reviewer", "description": "Reviews notes", "prompt": "You are the reviewer subagent.", "tools": []string{"read_file"}}},
		AppendSystemPrompt: "Mind the APPENDED-PROMPT-7.",
	})
	must(t, s, err)
	fields := decodeJSON[map[string]json.RawMessage](t, resp.Raw)
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
	must(t, s, err)
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
	must(t, s, err)
	if r.Subtype != "success" || r.Result != "All done." {
		t.Errorf("result = %+v\n%q", r, sdktest.Types(turn))
	}
	hooks := s.Requests("hook_callback")
	if len(hooks) != 1 || !strings.Contains(string(hooks[0].Body), `"pre-read"`) || !strings.Contains(string(hooks[0].Body), "notes.txt") {
		t.Errorf("hook_callback requests = %+v", hooks)
	}
	closeSDK(ctx, t, s)
}

// TestControlInitializeShapes: agents and sdkMcpServers as a list or as
// a map are both set up.
func TestControlInitializeShapes(t *testing.T) {
	t.Parallel()
	reviewer := map[string]any{"description": "Reviews notes", "prompt": "You review.", "tools": []string{"read_file"}}
	tests := []struct {
		name           string
		agents, sdkMCP any
	}{
		{"lists", []any{map[string]any{"name": "reviewer", "description": "Reviews notes", "systemPrompt": "You review."}}, []string{"calc"}},
		{"maps", map[string]any{"reviewer": reviewer}, map[string]any{"calc": map[string]any{"type": "sdk", "name": "calc"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := sdkContext(t)
			s := startSDK(t, `{"turns":[]}`, workspace(t, nil), sdktest.Options{MCPServers: map[string]*server.MCPServer{"calc": calcServer()}})
			_, err := s.Initialize(ctx, sdktest.InitializeRequest{Agents: tt.agents, SDKMCPServers: tt.sdkMCP})
			must(t, s, err)
			m, _, err := s.WaitFrom(ctx, 0, func(m sdktest.Message) bool { return m.Is("system", "init") })
			must(t, s, err)
			in, _ := m.Init()
			if !slices.Contains(sdktest.Names(in.Agents), "reviewer") || !slices.Contains(in.Tools, calcTool) {
				t.Errorf("system/init = %s", m)
			}
			closeSDK(ctx, t, s)
		})
	}
}

// TestControlSystemPrompt: initialize's systemPrompt replaces companion's
// base instructions (the first turn answers only a request that still has
// them).
func TestControlSystemPrompt(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	s := startSDK(t, `{"turns":[{"match":"You are companion, a coding agent","chunks":[{"text":"BASE KEPT"}]},
		{"match":"You are SYSTEM-PROMPT-9.","chunks":[{"text":"REPLACED"}]}],"fallback":"error"}`, workspace(t, nil), sdktest.Options{})
	_, err := s.Initialize(ctx, sdktest.InitializeRequest{SystemPrompt: "You are SYSTEM-PROMPT-9."})
	must(t, s, err)
	r, _, err := s.Prompt(ctx, "who are you?")
	must(t, s, err)
	if r.Result != "REPLACED" {
		t.Errorf("systemPrompt not applied: %+v", r)
	}
	closeSDK(ctx, t, s)
}

// TestControlInterrupt interrupts a turn while a tool runs (sleep 30): the
// turn ends cancelled long before the sleep would, and the session takes
// the next prompt.
func TestControlInterrupt(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	ws := workspace(t, nil)
	s := startSDK(t, `{"turns":[{"chunks":[`+shellCall("touch started && sleep 30")+`]},
		{"match":"second prompt","chunks":[{"text":"Still here."}]}],"fallback":"error"}`, ws, sdktest.Options{CanUseTool: allowAll})
	from := s.Len()
	must(t, s, s.SendUser("run the slow command"))
	waitFile(ctx, t, ws, "started")
	quick, cancel := context.WithTimeout(ctx, 20*time.Second) // < the sleep: a hang guard that also proves the kill
	defer cancel()
	p, err := s.StartRequest("interrupt", nil)
	must(t, s, err)
	_, err = p.Wait(quick)
	must(t, s, err)
	m, at, err := s.WaitFrom(quick, from, func(m sdktest.Message) bool { return m.Type == "result" })
	must(t, s, err)
	if r, _ := m.Result(); r.StopReason != "cancelled" {
		t.Errorf("result after interrupt = %s", m)
	}
	_, answered, _ := s.WaitFrom(quick, from, func(m sdktest.Message) bool {
		return m.Type == "control_response" && strings.Contains(m.String(), `"request_id":"`+p.ID+`"`)
	})
	if answered < at {
		t.Errorf("interrupt answered (line %d) before the turn stopped (result at line %d)", answered, at)
	}
	r, _, err := s.Prompt(ctx, "second prompt")
	must(t, s, err)
	if r.Subtype != "success" || r.Result != "Still here." {
		t.Errorf("prompt after interrupt = %+v", r)
	}
	must(t, s, s.Interrupt(ctx)) // idle: answered at once, nothing to stop
	closeSDK(ctx, t, s)
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
	t.Parallel()
	ctx := sdkContext(t)
	s := startSDK(t, `{"turns":[],"fallback":"echo"}`, workspace(t, nil), sdktest.Options{}, "--model", "gemini-2.5-pro")
	_, turn, err := s.Prompt(ctx, "one")
	must(t, s, err)
	if got := assistantModel(turn); got != "gemini-2.5-pro" {
		t.Errorf("first model = %q", got)
	}
	ch, err := s.SetModel(ctx, "gemini-2.5-flash")
	must(t, s, err)
	if ch.Model != "gemini-2.5-flash" || ch.PreviousModel != "gemini-2.5-pro" {
		t.Errorf("set_model response = %+v", ch)
	}
	m, err := s.WaitFor(ctx, func(m sdktest.Message) bool { return m.Is("system", "model_changed") })
	must(t, s, err)
	if v := m.Map(); v["model"] != "gemini-2.5-flash" || v["previous_model"] != "gemini-2.5-pro" || v["reason"] != "set_model" {
		t.Errorf("model_changed = %s", m)
	}
	_, turn, err = s.Prompt(ctx, "two")
	must(t, s, err)
	if got := assistantModel(turn); got != "gemini-2.5-flash" {
		t.Errorf("model after set_model = %q", got)
	}
	for _, bad := range []any{"no such model!", 42, ""} {
		_, err := s.SetModel(ctx, bad)
		controlError(t, fmt.Sprintf("set_model %v", bad), err)
	}
	_, turn, err = s.Prompt(ctx, "three")
	must(t, s, err)
	if got := assistantModel(turn); got != "gemini-2.5-flash" {
		t.Errorf("model after refused set_model = %q", got)
	}
	for _, m := range turn {
		if m.Is("system", "model_changed") {
			t.Errorf("a refused set_model was announced: %s", m)
		}
	}
	closeSDK(ctx, t, s)
}

// TestControlSetModelRollback: a model outside the offered list is tried;
// when its first request fails, the session goes back to the previous
// model, announces it with a reason, and the request is answered by it.
func TestControlSetModelRollback(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	s := startSDK(t, `{"turns":[{"match":"this fails","status":404,"message":"model not found"}],"fallback":"echo"}`,
		workspace(t, nil), sdktest.Options{}, "--model", "gemini-2.5-pro")
	ch, err := s.SetModel(ctx, "custom-model-x")
	must(t, s, err)
	if ch.Model != "custom-model-x" || ch.PreviousModel != "gemini-2.5-pro" {
		t.Errorf("set_model response = %+v", ch)
	}
	r, turn, err := s.Prompt(ctx, "this fails")
	must(t, s, err)
	var back []sdktest.Message
	for _, m := range turn {
		if m.Is("system", "model_changed") {
			back = append(back, m)
		}
	}
	if len(back) != 1 {
		t.Fatalf("want one model_changed back to gemini-2.5-pro during the failing turn; turn %q", sdktest.Types(turn))
	}
	if v := back[0].Map(); v["model"] != "gemini-2.5-pro" || v["previous_model"] != "custom-model-x" || !strings.Contains(fmt.Sprint(v["reason"]), "404") {
		t.Errorf("rollback announcement = %s", back[0])
	}
	if r.IsError || assistantModel(turn) != "gemini-2.5-pro" || r.Result != "(demo model) You said: this fails" {
		t.Errorf("the request was not answered (only) by the previous model: %+v, model %q", r, assistantModel(turn))
	}
	_, turn, err = s.Prompt(ctx, "after")
	must(t, s, err)
	if got := assistantModel(turn); got != "gemini-2.5-pro" {
		t.Errorf("model after rollback = %q", got)
	}
	closeSDK(ctx, t, s)
}

// TestControlSetModelSaved: an unlisted model whose first request
// succeeds is kept and saved with the session: resuming it in a new
// process starts on that model, and it is offered.
func TestControlSetModelSaved(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	e, ws := env(t), workspace(t, nil)
	first := startSDK(t, `{"turns":[],"fallback":"echo"}`, ws, sdktest.Options{Env: e})
	_, err := first.SetModel(ctx, "custom-model-x")
	must(t, first, err)
	r, turn, err := first.Prompt(ctx, "hello")
	must(t, first, err)
	if assistantModel(turn) != "custom-model-x" || r.IsError {
		t.Fatalf("the trial model did not answer: %q, %+v", assistantModel(turn), r)
	}
	closeSDK(ctx, t, first)
	second := startSDK(t, `{"turns":[],"fallback":"echo"}`, ws, sdktest.Options{Env: e}, "--resume", r.SessionID)
	_, turn, err = second.Prompt(ctx, "again")
	must(t, second, err)
	m, _, err := second.WaitFrom(ctx, 0, func(m sdktest.Message) bool { return m.Is("system", "init") })
	must(t, second, err)
	in, _ := m.Init()
	if in.Model != "custom-model-x" || m.SessionID != r.SessionID || assistantModel(turn) != "custom-model-x" {
		t.Errorf("resumed session: init %s, answered by %q", m, assistantModel(turn))
	}
	if !slices.Contains(sdktest.Names(in.Models), "custom-model-x") {
		t.Errorf("the kept model is not offered: %s", m)
	}
	closeSDK(ctx, t, second)
}

// TestControlSupportedCommands lists the built-in and the project's file
// commands, the same list initialize gave.
func TestControlSupportedCommands(t *testing.T) {
	t.Parallel()
	ctx := sdkContext(t)
	s := startSDK(t, `{"turns":[]}`, workspace(t, map[string]string{".companion/commands/greet.toml": greetCommand}), sdktest.Options{})
	init, err := s.Initialize(ctx, sdktest.InitializeRequest{})
	must(t, s, err)
	cmds, err := s.SupportedCommands(ctx)
	must(t, s, err)
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
	closeSDK(ctx, t, s)
}

// tinyPNG is a 1×1 PNG, base64.
const tinyPNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
