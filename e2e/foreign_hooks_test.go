package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeHooks: hooks written for Claude Code, in companion's settings
// or in Claude Code's own files, fire for its tool names, read its event
// name, tool name and input shape, block with exit code 2, and have their
// timeouts in seconds (issue 29, item 2).
func TestClaudeHooks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		file      string // "companion", "home" (~/.claude/settings.json) or "project" (.claude/settings.json)
		event     string
		matcher   string
		timeout   int
		call      string
		wantTool  string
		wantInput map[string]any // members of tool_input ("WS" is the workspace)
		kept      bool           // victim/file still there
	}{
		{"Bash blocks rm by exit code 2", "companion", "PreToolUse", "Bash", 0, shellCall("ls && rm -rf victim"),
			"Bash", map[string]any{"command": "ls && rm -rf victim"}, true},
		{"Edit|Write after a write, timeout in seconds", "home", "PostToolUse", "Edit|Write", 5,
			modelCall("write_file", map[string]any{"file_path": "out.txt", "content": "x"}),
			"Write", map[string]any{"file_path": "WS/out.txt", "content": "x"}, true},
		{"project's Claude settings, accepted", "project", "PreToolUse", "Bash", 0, shellCall("rm -rf victim"),
			"Bash", map[string]any{"command": "rm -rf victim"}, true},
		{"a matcher for another tool does not fire", "companion", "PreToolUse", "Write", 0, shellCall("rm -rf victim"),
			"", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, dir := env(t), t.TempDir()
			capture, hook := filepath.Join(dir, "stdin.json"), filepath.Join(dir, "hook.sh")
			// It answers late (a timeout read as milliseconds would kill it)
			// and refuses any rm.
			os.WriteFile(hook, []byte("#!/bin/sh\ncat > "+capture+"\nsleep 0.3\nif grep -q 'rm -rf' "+capture+
				"; then echo 'no rm here' >&2; exit 2; fi\n"), 0o755)
			entry := map[string]any{"type": "command", "command": hook}
			if tt.timeout > 0 {
				entry["timeout"] = tt.timeout
			}
			settings, _ := json.MarshalIndent(map[string]any{"hooks": map[string]any{tt.event: []any{
				map[string]any{"matcher": tt.matcher, "hooks": []any{entry}}}}}, "", "  ")
			ws := workspace(t, map[string]string{"victim/file": "keep me"})
			switch tt.file {
			case "companion":
				e = withSettings(t, e, string(settings))
			case "home":
				writeAt(t, homeOf(e), ".claude/settings.json", string(settings))
			case "project":
				writeAt(t, ws, ".claude/settings.json", string(settings))
				accept := exec.Command(companionBin(t), "settings", "accept", ws)
				accept.Env = e
				if out, err := accept.CombinedOutput(); err != nil {
					t.Fatalf("accept: %v\n%s", err, out)
				}
			}
			sc := script(t, `{"turns":[{"chunks":[`+tt.call+`]},{"chunks":[{"text":"done"}]}]}`)
			o := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "go", "--output-format", "json", "--script", sc, "-y"}})
			if o.Code != 0 {
				t.Fatalf("run: %s", o)
			}
			if _, err := os.Stat(filepath.Join(ws, "victim", "file")); (err == nil) != tt.kept {
				t.Errorf("victim kept = %v, want %v\n%s", err == nil, tt.kept, o)
			}
			data, err := os.ReadFile(capture)
			if tt.wantTool == "" {
				if err == nil {
					t.Errorf("the hook fired: %s", data)
				}
				return
			}
			var in struct {
				Event     string         `json:"hook_event_name"`
				Tool      string         `json:"tool_name"`
				ToolInput map[string]any `json:"tool_input"`
			}
			if err := json.Unmarshal(data, &in); err != nil {
				t.Fatalf("hook input %q: %v\n%s", data, err, o)
			}
			if in.Event != tt.event || in.Tool != tt.wantTool {
				t.Errorf("hook got event %q tool %q, want %q %q", in.Event, in.Tool, tt.event, tt.wantTool)
			}
			for k, v := range tt.wantInput {
				if s, ok := v.(string); ok {
					v = strings.ReplaceAll(s, "WS", ws)
				}
				if in.ToolInput[k] != v {
					t.Errorf("tool_input.%s = %#v, want %#v", k, in.ToolInput[k], v)
				}
			}
			if tt.kept && tt.wantTool == "Bash" && !strings.Contains(o.Stdout, "no rm here") {
				t.Errorf("the hook's reason did not reach the model:\n%s", o.Stdout)
			}
		})
	}
}

// TestHookMatcherNamingNoTool: a tool matcher that matches no tool's name
// is reported to the user, not silently skipped.
func TestHookMatcherNamingNoTool(t *testing.T) {
	t.Parallel()
	e := withSettings(t, env(t), `{"hooks": {"PreToolUse": [{"matcher": "Bsh", "hooks": [{"type": "command", "command": "true"}]}]}}`)
	sc := script(t, `{"turns":[{"chunks":[{"text":"done"}]}]}`)
	o := runCompanion(t, runOpts{env: e, args: []string{"-p", "go", "--script", sc}})
	if !strings.Contains(o.Stderr+o.Stdout, `matcher \"Bsh\" names no known tool`) && !strings.Contains(o.Stderr+o.Stdout, `matcher "Bsh" names no known tool`) {
		t.Errorf("no word about the matcher:\n%s", o)
	}
}
