package headless

import (
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"companion/agent"
	"companion/agent/hooks"
	"companion/host"
)

func TestUserParts(t *testing.T) {
	tests := []struct {
		name    string
		msg     string
		want    []string // text of each part, or "image:<mime>:<len>"
		wantErr string
	}{
		{"string", `{"role":"user","content":"hi"}`, []string{"hi"}, ""},
		{"blocks", `{"role":"user","content":[{"type":"text","text":"see"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAEC"}}]}`, []string{"see", "image:image/png:3"}, ""},
		{"empty string", `{"role":"user","content":""}`, nil, "empty"},
		{"no content", `{"role":"user"}`, nil, "needs"},
		{"not an object", `"hi"`, nil, "needs"},
		{"bad base64", `{"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"%%%"}}]}`, nil, "not base64"},
		{"url image", `{"content":[{"type":"image","source":{"type":"url","url":"http://x"}}]}`, nil, "base64"},
		{"tool_result", `{"content":[{"type":"tool_result","tool_use_id":"x"}]}`, nil, "unsupported block type"},
		{"number content", `{"content":7}`, nil, "neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := userParts(json.RawMessage(tt.msg))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range parts {
				if p.InlineData != nil {
					got = append(got, "image:"+p.InlineData.MIMEType+":"+string(rune('0'+len(p.InlineData.Data))))
				} else {
					got = append(got, p.Text)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("parts = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestInitializeFields(t *testing.T) {
	sr := &streamRun{o: &Options{ControlTimeout: 7 * time.Second, Options: host.Options{Log: slog.New(slog.DiscardHandler)}}, relays: map[string]*sdkRelay{}}
	ex, err := sr.extras(json.RawMessage(`{
		"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hookCallbackIds": ["h1", "h2"], "timeout": 3}],
		          "Stop": [{"hookCallbackIds": ["h3"]}]},
		"sdkMcpServers": {"calc": {"type": "sdk", "name": "calc"}},
		"mcpServers": {"files": {"command": "mcp-files", "args": ["--root", "."]}},
		"agents": {"reviewer": {"description": "Reviews diffs", "prompt": "You review.", "tools": ["read_file"]}},
		"appendSystemPrompt": "Be brief."}`))
	if err != nil {
		t.Fatal(err)
	}
	pre := ex.hooks.Hooks[hooks.BeforeTool]
	if len(pre) != 2 || pre[0].Name != "sdk:h1" || pre[1].Name != "sdk:h2" || pre[0].Matcher != "run_shell_command" || pre[0].Timeout != 3*time.Second || pre[0].Call == nil {
		t.Errorf("PreToolUse hooks = %+v", pre)
	}
	if stop := ex.hooks.Hooks[hooks.AfterAgent]; len(stop) != 1 || stop[0].Timeout != 7*time.Second {
		t.Errorf("Stop hooks = %+v", stop)
	}
	var names []string
	for _, s := range ex.mcp {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"files", "calc"}) || ex.mcp[1].Relay == nil || sr.relays["calc"] == nil || ex.mcp[0].Command != "mcp-files" {
		t.Errorf("mcp servers = %+v", ex.mcp)
	}
	if len(ex.agents) != 1 || ex.agents[0].Name != "reviewer" || ex.agents[0].Prompt != "You review." {
		t.Errorf("agents = %+v", ex.agents)
	}
	if ex.appendPrompt != "Be brief." {
		t.Errorf("appendPrompt = %q", ex.appendPrompt)
	}
}

func TestInitializeFieldErrors(t *testing.T) {
	for _, req := range []string{
		`{"hooks": {"Whenever": [{"hookCallbackIds": ["h"]}]}}`,
		`{"hooks": {"PreToolUse": [{"matcher": "x"}]}}`,
		`{"hooks": 7}`,
		`{"sdkMcpServers": 7}`,
		`{"sdkMcpServers": [{}]}`,
		`{"agents": [{"name": "a"}]}`,
		`{"agents": "a"}`,
		`{"mcpServers": {"x": {}}}`,
		`[1]`,
	} {
		sr := &streamRun{o: &Options{ControlTimeout: time.Second}, relays: map[string]*sdkRelay{}}
		if _, err := sr.extras(json.RawMessage(req)); err == nil {
			t.Errorf("extras(%s) accepted", req)
		}
	}
	sr := &streamRun{o: &Options{ControlTimeout: time.Second}, relays: map[string]*sdkRelay{}}
	ex, err := sr.extras(json.RawMessage(`{"hooks": [{"event": "PostToolUse", "callback_id": "h9"}], "sdkMcpServers": ["a", {"name": "b"}], "agents": [{"name": "x", "description": "d", "systemPrompt": "p"}]}`))
	if err != nil || len(ex.hooks.Hooks[hooks.AfterTool]) != 1 || len(ex.mcp) != 2 || ex.agents[0].Prompt != "p" {
		t.Errorf("list forms: %+v, %v", ex, err)
	}
}

func TestModes(t *testing.T) {
	for in, want := range map[string]string{"default": agent.ModeDefault, "plan": agent.ModePlan, "auto-edit": agent.ModeAutoEdit,
		"acceptEdits": agent.ModeAutoEdit, "yolo": agent.ModeYolo, "bypassPermissions": agent.ModeYolo} {
		if got, err := agentMode(in); err != nil || got != want {
			t.Errorf("agentMode(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := agentMode("wild"); err == nil {
		t.Error("agentMode accepted wild")
	}
	if sdkMode(agent.ModeAutoEdit) != "auto-edit" || sdkMode(agent.ModeYolo) != "yolo" {
		t.Error("sdkMode")
	}
}

func TestReadPrompt(t *testing.T) {
	tests := []struct {
		flag, stdin string
		piped       bool
		want        string
		wantErr     bool
	}{
		{"hi", "", false, "hi", false},
		{"", "from stdin\n", true, "from stdin", false},
		{"explain", "code\n", true, "explain\n\ncode", false},
		{"explain", "ignored", false, "explain", false},
		{"", "  \n", true, "", true},
	}
	for _, tt := range tests {
		o := &Options{Prompt: tt.flag, Stdin: strings.NewReader(tt.stdin), StdinPiped: tt.piped}
		got, err := readPrompt(o)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("readPrompt(%q, %q) = %q, %v", tt.flag, tt.stdin, got, err)
		}
	}
}

func TestOptionsCheck(t *testing.T) {
	bad := []Options{
		{OutputFormat: "xml"},
		{InputFormat: "stream-json"},
		{InputFormat: "stream-json", OutputFormat: "stream-json", Prompt: "hi"},
		{InputFormat: "yaml"},
		{ApprovalMode: "wild"},
		{MaxTurns: -1},
		{IncludePartial: true, OutputFormat: "json"},
	}
	for _, o := range bad {
		if err := o.Check(); err == nil {
			t.Errorf("Check(%+v) passed", o)
		}
	}
	o := Options{}
	if err := o.Check(); err != nil || o.OutputFormat != "text" || o.ControlTimeout != DefaultControlTimeout {
		t.Errorf("defaults: %+v, %v", o, err)
	}
}

func TestRequestIDAndSystemLine(t *testing.T) {
	for raw, want := range map[string]string{`{"request_id":"a"}`: "a", `{"request_id":12}`: "12", `{"request_id":""}`: "", `{}`: ""} {
		var in inbound
		json.Unmarshal([]byte(raw), &in)
		if got, ok := in.requestID(); got != want || ok != (want != "") {
			t.Errorf("requestID(%s) = %q, %v", raw, got, ok)
		}
	}
	b, err := json.Marshal(systemLine{envelope: envelope{Type: "system", Subtype: "init", UUID: "u", SessionID: "s"},
		fields: map[string]any{"type": "evil", "model": "m"}})
	if err != nil || string(b) != `{"type":"system","subtype":"init","uuid":"u","session_id":"s","model":"m"}` {
		t.Errorf("systemLine = %s, %v", b, err)
	}
}
