package e2e

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"companion/internal/testkit/acptest"
)

// These Test functions start the real binary on purpose (onBinary), as the
// smoke subset; inprocess_test.go plays the same scenarios in process.

func TestPromptStreamsToEndTurn(t *testing.T) {
	t.Parallel()
	testPromptStreamsToEndTurn(t, onBinary)
}

func testPromptStreamsToEndTurn(t *testing.T, start starter) {
	ed := start(t, `{"turns":[{"chunks":[{"thought":"Thinking it over."},{"text":"Hello, "},{"text":"editor."}],
		"usage":{"promptTokens":12,"outputTokens":4}}]}`, nil)
	init := ed.Initialize(map[string]any{})
	var ir struct {
		ProtocolVersion int                   `json:"protocolVersion"`
		AgentInfo       struct{ Name string } `json:"agentInfo"`
	}
	json.Unmarshal(init.Result, &ir)
	if ir.ProtocolVersion != 1 || ir.AgentInfo.Name != "companion" {
		t.Errorf("initialize result = %s", init.Result)
	}
	id := ed.NewSession(workspace(t, map[string]string{"main.go": "package main\n"}))
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "Say hello\nto me"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	ups := ed.Updates(id)
	want := []string{"available_commands_update", "session_info_update", "agent_thought_chunk",
		"agent_message_chunk", "agent_message_chunk", "usage_update"}
	if got := kinds(ups); !slices.Equal(got, want) {
		t.Fatalf("updates = %q\nwant %q", got, want)
	}
	if ups[3].Text()+ups[4].Text() != "Hello, editor." || ups[2].Text() != "Thinking it over." {
		t.Errorf("chunk texts = %q %q %q", ups[2].Text(), ups[3].Text(), ups[4].Text())
	}
	var title string
	ups[1].Field("title", &title)
	if title != "Say hello" {
		t.Errorf("title = %q", title)
	}
	var used int
	ups[5].Field("used", &used)
	if used != 16 {
		t.Errorf("usage used = %d, want 16", used)
	}
	ed.Close()
}

// TestReadFileThroughClient checks that read_file reads the editor's buffer
// (not the disk) and that the model receives it: the second turn only
// matches a request carrying the buffer's text.
func TestReadFileThroughClient(t *testing.T) {
	t.Parallel()
	testReadFileThroughClient(t, onBinary)
}

func testReadFileThroughClient(t *testing.T, start starter) {
	ws := workspace(t, map[string]string{"notes.txt": "text on disk\n"})
	var mu sync.Mutex
	var reads []string
	ed := start(t, `{"turns":[
		{"chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"notes.txt"}}}]},
		{"match":"unsaved buffer text","chunks":[{"text":"The note says hi."}]}],
		"fallback":"error"}`,
		func(method string, params json.RawMessage) (any, *acptest.RPCError) {
			var p struct{ Path string }
			json.Unmarshal(params, &p)
			mu.Lock()
			reads = append(reads, method+" "+p.Path)
			mu.Unlock()
			return map[string]any{"content": "unsaved buffer text\n"}, nil
		})
	ed.Initialize(map[string]any{"fs": map[string]any{"readTextFile": true, "writeTextFile": true}})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "What does notes.txt say?"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	mu.Lock()
	if want := []string{"fs/read_text_file " + filepath.Join(ws, "notes.txt")}; !slices.Equal(reads, want) {
		t.Errorf("client reads = %q, want %q", reads, want)
	}
	mu.Unlock()
	var statuses []string
	var content string
	for _, u := range ed.Updates(id) {
		if u.Kind == "tool_call" || u.Kind == "tool_call_update" {
			var st string
			u.Field("status", &st)
			statuses = append(statuses, u.Kind+":"+st)
			var c []struct{ Content struct{ Text string } }
			u.Field("content", &c)
			if len(c) > 0 {
				content = c[0].Content.Text
			}
		}
	}
	if want := []string{"tool_call:pending", "tool_call_update:in_progress", "tool_call_update:completed"}; !slices.Equal(statuses, want) {
		t.Errorf("tool statuses = %q, want %q", statuses, want)
	}
	if !strings.Contains(content, "unsaved buffer text") {
		t.Errorf("tool content = %q, want the buffer text", content)
	}
	ed.Close()
}

func TestCancelDuringStreaming(t *testing.T) {
	t.Parallel()
	testCancelDuringStreaming(t, onBinary)
}

func testCancelDuringStreaming(t *testing.T, start starter) {
	ed := start(t, `{"turns":[{"chunks":[{"text":"Starting a long answer"}],"hang":true}]}`, nil)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	resp := ed.Prompt(id, "Write a novel")
	ed.WaitUpdate(id, "agent_message_chunk")
	ed.Notify("session/cancel", map[string]any{"sessionId": id})
	if got := ed.StopReason(ed.Wait(resp)); got != "cancelled" {
		t.Fatalf("stopReason = %q, want cancelled", got)
	}
	// The session takes prompts again after a cancel.
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "again"))); got != "end_turn" {
		t.Fatalf("after cancel: stopReason = %q", got)
	}
	ed.Close()
}

// TestCancelDuringTool cancels while the editor holds an fs read: the agent
// must withdraw its request ($/cancel_request) and end the turn cancelled.
func TestCancelDuringTool(t *testing.T) {
	t.Parallel()
	testCancelDuringTool(t, onBinary)
}

func testCancelDuringTool(t *testing.T, start starter) {
	ws := workspace(t, map[string]string{"big.txt": "x\n"})
	release := make(chan struct{})
	ed := start(t, `{"turns":[{"chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"big.txt"}}}]}]}`,
		func(method string, _ json.RawMessage) (any, *acptest.RPCError) {
			<-release
			return nil, &acptest.RPCError{Code: -32800, Message: "cancelled"}
		})
	defer close(release)
	ed.Initialize(map[string]any{"fs": map[string]any{"readTextFile": true}})
	id := ed.NewSession(ws)
	resp := ed.Prompt(id, "read it")
	ed.WaitFor(func(m acptest.Msg) bool { return m.Method == "fs/read_text_file" })
	ed.Notify("session/cancel", map[string]any{"sessionId": id})
	ed.WaitFor(func(m acptest.Msg) bool { return m.Method == "$/cancel_request" })
	if got := ed.StopReason(ed.Wait(resp)); got != "cancelled" {
		t.Fatalf("stopReason = %q, want cancelled", got)
	}
	last := ed.Updates(id)
	var st string
	last[len(last)-1].Field("status", &st)
	if st != "failed" {
		t.Errorf("last tool status = %q, want failed", st)
	}
	ed.Close()
}

func TestTwoSessionsAtOnce(t *testing.T) {
	t.Parallel()
	testTwoSessionsAtOnce(t, onBinary)
}

func testTwoSessionsAtOnce(t *testing.T, start starter) {
	ed := start(t, `{"turns":[
		{"match":"alpha","delayMs":20,"chunks":[{"text":"A1 "},{"text":"A2 "},{"text":"A3"}]},
		{"match":"beta","delayMs":20,"chunks":[{"text":"B1 "},{"text":"B2 "},{"text":"B3"}]}],"fallback":"error"}`, nil)
	ed.Initialize(map[string]any{})
	ws := workspace(t, nil)
	a, b := ed.NewSession(ws), ed.NewSession(ws)
	ra, rb := ed.Prompt(a, "alpha"), ed.Prompt(b, "beta")
	for _, r := range []<-chan acptest.Msg{ra, rb} {
		if got := ed.StopReason(ed.Wait(r)); got != "end_turn" {
			t.Fatalf("stopReason = %q", got)
		}
	}
	for id, want := range map[string]string{a: "A1 A2 A3", b: "B1 B2 B3"} {
		var text string
		for _, u := range ed.Updates(id) {
			if u.Kind == "agent_message_chunk" {
				text += u.Text()
			}
		}
		if text != want {
			t.Errorf("session %s text = %q, want %q", id, text, want)
		}
	}
	ed.Close()
}

func TestBusySessionRefusesSecondPrompt(t *testing.T) {
	t.Parallel()
	testBusySessionRefusesSecondPrompt(t, onBinary)
}

func testBusySessionRefusesSecondPrompt(t *testing.T, start starter) {
	ed := start(t, `{"turns":[{"chunks":[{"text":"working"}],"hang":true}]}`, nil)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	first := ed.Prompt(id, "one")
	ed.WaitUpdate(id, "agent_message_chunk")
	second := ed.Wait(ed.Prompt(id, "two"))
	if second.Error == nil || second.Error.Code != -32600 || !strings.Contains(second.Error.Message, "already answering") {
		t.Errorf("second prompt = %+v, want -32600 busy", second.Error)
	}
	ed.Notify("session/cancel", map[string]any{"sessionId": id})
	if got := ed.StopReason(ed.Wait(first)); got != "cancelled" {
		t.Errorf("first stopReason = %q", got)
	}
	ed.Close()
}

func TestModesAndConfigOptions(t *testing.T) {
	t.Parallel()
	testModesAndConfigOptions(t, onBinary)
}

func testModesAndConfigOptions(t *testing.T, start starter) {
	ed := start(t, `{"turns":[]}`, nil)
	ed.Initialize(map[string]any{})
	ws := workspace(t, nil)
	m := ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}})
	var r struct {
		SessionID     string
		Modes         struct{ CurrentModeID string }
		ConfigOptions []struct {
			ID, CurrentValue string
		}
	}
	json.Unmarshal(m.Result, &r)
	if r.Modes.CurrentModeID != "default" || len(r.ConfigOptions) != 3 || r.ConfigOptions[0].ID != "mode" || r.ConfigOptions[2].ID != "thought_level" {
		t.Fatalf("session/new = %s", m.Result)
	}
	think := ed.Call("session/set_config_option", map[string]any{"sessionId": r.SessionID, "configId": "thought_level", "value": "high"})
	if think.Error != nil || !strings.Contains(string(think.Result), `"currentValue":"high"`) {
		t.Fatalf("set thought level = %s %v", think.Result, think.Error)
	}
	set := ed.Call("session/set_config_option", map[string]any{"sessionId": r.SessionID, "configId": "mode", "value": "plan"})
	if set.Error != nil || !strings.Contains(string(set.Result), `"currentValue":"plan"`) {
		t.Fatalf("set_config_option = %s %v", set.Result, set.Error)
	}
	ed.WaitUpdate(r.SessionID, "current_mode_update")
	if res := ed.Call("session/set_mode", map[string]any{"sessionId": r.SessionID, "modeId": "yolo"}); res.Error != nil {
		t.Fatalf("set_mode: %v", res.Error)
	}
	u := ed.WaitUpdate(r.SessionID, "config_option_update")
	if !strings.Contains(string(u.Raw), `"currentValue":"yolo"`) {
		t.Errorf("config_option_update after set_mode = %s", u.Raw)
	}
	bad := ed.Call("session/set_mode", map[string]any{"sessionId": r.SessionID, "modeId": "nope"})
	if bad.Error == nil || bad.Error.Code != -32602 {
		t.Errorf("set_mode nope = %+v", bad.Error)
	}
	model := ed.Call("session/set_config_option", map[string]any{"sessionId": r.SessionID, "configId": "model", "value": "gemini-2.5-flash"})
	if model.Error != nil || !strings.Contains(string(model.Result), `"currentValue":"gemini-2.5-flash"`) {
		t.Errorf("set model = %s %v", model.Result, model.Error)
	}
	if c := ed.Call("session/close", map[string]any{"sessionId": r.SessionID}); c.Error != nil {
		t.Errorf("close: %v", c.Error)
	}
	if p := ed.Wait(ed.Prompt(r.SessionID, "hi")); p.Error == nil || p.Error.Code != -32002 {
		t.Errorf("prompt after close = %+v, want -32002", p.Error)
	}
	ed.Close()
}

func TestAuthentication(t *testing.T) {
	t.Parallel()
	ed := startAgent(t, agentOpts{})
	init := ed.Initialize(map[string]any{})
	if !strings.Contains(string(init.Result), `"id":"gemini-api-key"`) {
		t.Errorf("authMethods missing: %s", init.Result)
	}
	ws := workspace(t, nil)
	for _, m := range []acptest.Msg{
		ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}),
		ed.Call("authenticate", map[string]any{"methodId": "gemini-api-key"}),
	} {
		if m.Error == nil || m.Error.Code != -32000 {
			t.Errorf("without a key: %+v, want -32000", m.Error)
		}
	}
	ed.Close()
}

// TestLogout: after logout every method that needs credentials answers
// -32000 (new sessions and prompts to old ones) until authenticate.
func TestLogout(t *testing.T) {
	t.Parallel()
	testLogout(t, onBinary)
}

func testLogout(t *testing.T, start starter) {
	ed := start(t, `{"turns":[],"fallback":"echo"}`, nil)
	init := ed.Initialize(map[string]any{})
	if !strings.Contains(string(init.Result), `"auth":{"logout":{}}`) {
		t.Errorf("logout capability missing: %s", init.Result)
	}
	ws := workspace(t, nil)
	id := ed.NewSession(ws)
	if m := ed.Call("logout", map[string]any{}); m.Error != nil || string(m.Result) != "{}" {
		t.Fatalf("logout = %s, %+v", m.Result, m.Error)
	}
	for what, m := range map[string]acptest.Msg{
		"session/new":    ed.Call("session/new", map[string]any{"cwd": ws, "mcpServers": []any{}}),
		"session/prompt": ed.Call("session/prompt", map[string]any{"sessionId": id, "prompt": []any{map[string]any{"type": "text", "text": "hi"}}}),
	} {
		if m.Error == nil || m.Error.Code != -32000 {
			t.Errorf("%s after logout: %+v, want -32000", what, m.Error)
		}
	}
	if m := ed.Call("session/list", map[string]any{}); m.Error != nil {
		t.Errorf("session/list needs no credentials: %+v", m.Error)
	}
	if m := ed.Call("authenticate", map[string]any{"methodId": "gemini-api-key"}); m.Error != nil {
		t.Fatalf("authenticate: %+v", m.Error)
	}
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "back"))); got != "end_turn" {
		t.Errorf("prompt after authenticate: %q", got)
	}
	ed.Close()
}

// TestMalformedInput sends bad input and checks each answer, then that the
// agent still serves a good request.
func TestMalformedInput(t *testing.T) {
	t.Parallel()
	testMalformedInput(t, onBinary)
}

func testMalformedInput(t *testing.T, start starter) {
	ws := workspace(t, nil)
	big := `{"jsonrpc":"2.0","id":99,"method":"initialize","params":{"x":"` + strings.Repeat("a", 40<<20) + `"}}`
	tests := []struct {
		name, line, id string
		code           int64
	}{
		{"bad json", `{"jsonrpc":"2.0","id":1,"method":`, "null", -32700},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`, "null", -32600},
		{"no jsonrpc", `{"id":2,"method":"initialize","params":{"protocolVersion":1}}`, "2", -32600},
		{"wrong type", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"one"}}`, "3", -32602},
		{"unknown method", `{"jsonrpc":"2.0","id":"x","method":"nope/unknown","params":{}}`, `"x"`, -32601},
		{"40 MiB line", big, "null", -32600},
		{"unknown session", `{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}}`, "4", -32002},
		{"relative cwd", `{"jsonrpc":"2.0","id":5,"method":"session/new","params":{"cwd":"rel","mcpServers":[]}}`, "5", -32602},
		{"bad session id type", `{"jsonrpc":"2.0","id":6,"method":"session/prompt","params":{"sessionId":5,"prompt":[]}}`, "6", -32602},
		{"unknown block", `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"video"}]}}`, "7", -32602},
		{"negative id", `{"jsonrpc":"2.0","id":-8,"method":"nope"}`, "-8", -32601},
	}
	ed := start(t, `{"turns":[]}`, nil)
	before := ed.Wait(ed.SendRaw([]byte(`{"jsonrpc":"2.0","id":0,"method":"session/new","params":{"cwd":"`+ws+`","mcpServers":[]}}`), "0"))
	if before.Error == nil || before.Error.Code != -32600 {
		t.Errorf("request before initialize = %+v, want -32600", before.Error)
	}
	ed.Initialize(map[string]any{})
	for _, tt := range tests {
		m := ed.Wait(ed.SendRaw([]byte(tt.line), tt.id))
		if m.Error == nil || m.Error.Code != tt.code {
			t.Errorf("%s: got %+v, want code %d", tt.name, m.Error, tt.code)
		}
		if m.Error != nil && (m.Error.Message == "" || strings.Contains(m.Error.Message, "\n")) {
			t.Errorf("%s: message %q is not one sentence", tt.name, m.Error.Message)
		}
		ed.NotifyUnchecked("_unknown/notification", map[string]any{})
		if id := ed.NewSession(ws); id == "" {
			t.Fatalf("%s: agent stopped serving", tt.name)
		}
	}
	ed.Close()
}

func TestVersionNegotiation(t *testing.T) {
	t.Parallel()
	testVersionNegotiation(t, onBinary)
}

func testVersionNegotiation(t *testing.T, start starter) {
	ed := start(t, `{"turns":[]}`, nil)
	for _, v := range []int{1, 2, 65535} {
		m := ed.Call("initialize", map[string]any{"protocolVersion": v})
		if !strings.Contains(string(m.Result), `"protocolVersion":1`) {
			t.Errorf("initialize(%d) = %s %v", v, m.Result, m.Error)
		}
	}
	ed.Close()
}

func TestSlashCommandAndTitle(t *testing.T) {
	t.Parallel()
	testSlashCommandAndTitle(t, onBinary)
}

func testSlashCommandAndTitle(t *testing.T, start starter) {
	ed := start(t, `{"turns":[]}`, nil)
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	ed.WaitUpdate(id, "available_commands_update")
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "/tools"))); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	var text string
	for _, u := range ed.Updates(id) {
		text += u.Text()
	}
	for _, tool := range []string{"read_file", "list_directory", "glob", "grep"} {
		if !strings.Contains(text, fmt.Sprintf("`%s`", tool)) {
			t.Errorf("/tools output lacks %s: %q", tool, text)
		}
	}
	ed.Close()
}
