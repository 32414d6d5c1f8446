package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestRunClaudeDialect: hooks written for Claude Code fire for its tool
// names and read its event name, tool name and input shape; a
// replacement input they print comes back in companion's spelling. Hooks
// under companion's (Gemini CLI's) names read companion's.
func TestRunClaudeDialect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		raw      string // the hooks setting; its command is replaced by the capture
		in       Input
		fired    bool
		wantSent map[string]any // members of the captured stdin
		wantBack map[string]any // Outcome.ToolInput
	}{
		{"Bash matches the shell tool", `{"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "CMD"}]}]}`,
			Input{ToolName: "run_shell_command", Data: map[string]any{"tool_input": map[string]any{"command": "ls", "is_background": true}}},
			true, map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
				"tool_input": map[string]any{"command": "ls", "run_in_background": true}}, nil},
		{"Edit|Write matches replace, paths absolute, answer mapped back", `{"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "CMD; echo '{\"hookSpecificOutput\":{\"updatedInput\":{\"file_path\":\"/x\",\"replace_all\":true}}}'"}]}]}`,
			Input{ToolName: "replace", Cwd: "CWD", Data: map[string]any{"tool_input": map[string]any{"file_path": "a.go", "allow_multiple": false}}},
			true, map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "CWD/a.go", "replace_all": false}},
			map[string]any{"file_path": "/x", "allow_multiple": true}},
		{"mcp__ matches an MCP tool", `{"PostToolUse": [{"matcher": "mcp__db__.*", "hooks": [{"type": "command", "command": "CMD"}]}]}`,
			Input{ToolName: "mcp_db_query", MCPServer: "db", MCPTool: "query", Data: map[string]any{"tool_input": json.RawMessage(`{"sql":"x"}`)}},
			true, map[string]any{"hook_event_name": "PostToolUse", "tool_name": "mcp__db__query", "tool_input": map[string]any{"sql": "x"}}, nil},
		{"Gemini CLI's name, companion's shape", `{"BeforeTool": [{"matcher": "search_file_content", "command": "CMD"}]}`,
			Input{ToolName: "grep", Data: map[string]any{"tool_input": map[string]any{"dir_path": "src"}}},
			true, map[string]any{"hook_event_name": "BeforeTool", "tool_name": "grep", "tool_input": map[string]any{"dir_path": "src"}}, nil},
		{"Write does not match the shell tool", `{"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "CMD"}]}]}`,
			Input{ToolName: "run_shell_command"}, false, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			capture := filepath.Join(dir, "stdin.json")
			if tt.in.Cwd == "CWD" {
				tt.in.Cwd = dir
				tt.wantSent["tool_input"].(map[string]any)["file_path"] = filepath.Join(dir, "a.go")
			}
			raw, _ := json.Marshal(capture)
			cfg, err := Parse(json.RawMessage(replaceCmd(tt.raw, "cat > "+string(raw[1:len(raw)-1]))))
			if err != nil {
				t.Fatal(err)
			}
			ev := BeforeTool
			if _, ok := cfg.Hooks[AfterTool]; ok {
				ev = AfterTool
			}
			out, err := NewRunner(cfg, Options{Now: fixedNow}).Run(context.Background(), ev, tt.in)
			if err != nil || len(out.Errors) > 0 {
				t.Fatalf("Run: %v %v", err, out.Errors)
			}
			data, err := os.ReadFile(capture)
			if fired := err == nil; fired != tt.fired {
				t.Fatalf("fired = %v, want %v", fired, tt.fired)
			}
			var sent map[string]any
			json.Unmarshal(data, &sent)
			for k, want := range tt.wantSent {
				if !reflect.DeepEqual(sent[k], want) {
					t.Errorf("%s = %#v, want %#v", k, sent[k], want)
				}
			}
			if !reflect.DeepEqual(out.ToolInput, tt.wantBack) {
				t.Errorf("ToolInput = %#v, want %#v", out.ToolInput, tt.wantBack)
			}
		})
	}
}

// replaceCmd puts cmd where a hooks setting says CMD.
func replaceCmd(raw, cmd string) string {
	b, _ := json.Marshal(cmd)
	s := string(b[1 : len(b)-1])
	out := ""
	for i := 0; i < len(raw); i++ {
		if i+3 <= len(raw) && raw[i:i+3] == "CMD" {
			out += s
			i += 2
			continue
		}
		out += string(raw[i])
	}
	return out
}
