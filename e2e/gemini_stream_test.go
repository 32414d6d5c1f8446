package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// geminiLine is one line of Gemini CLI's stream-json, the fields the
// tests read.
type geminiLine struct {
	Type       string          `json:"type"`
	Subtype    string          `json:"subtype"`
	Timestamp  string          `json:"timestamp"`
	SessionID  string          `json:"session_id"`
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	Delta      bool            `json:"delta"`
	ToolName   string          `json:"tool_name"`
	ToolID     string          `json:"tool_id"`
	Parameters json.RawMessage `json:"parameters"`
	Status     string          `json:"status"`
	Output     string          `json:"output"`
	Error      *struct{ Type, Message string }
	Stats      *struct {
		ToolCalls int `json:"tool_calls"`
	}
}

// TestGeminiStreamJSON: `companion -p … -o stream-json`, as a script
// written for Gemini CLI runs it, writes Gemini CLI's events (init, the
// user's message, tool_use, tool_result, the answer as delta messages,
// result) and exits with its codes: 53 at the turn limit, 42 on bad
// input. `companion run`, and --include-partial-messages, keep the SDK's
// shape (issue 29, item 13).
func TestGeminiStreamJSON(t *testing.T) {
	t.Parallel()
	readThenAnswer := `{"turns":[{"chunks":[` + modelCall("read_file", map[string]any{"file_path": "notes.txt"}) + `]},
		{"chunks":[{"text":"The notes say "},{"text":"milk."}]}],"fallback":"error"}`
	loop := `{"turns":[{"times":5,"chunks":[` + modelCall("list_directory", map[string]any{"dir_path": "."}) + `]}],"fallback":"error"}`
	tests := []struct {
		name   string
		args   []string
		script string
		code   int
		check  func(t *testing.T, lines []geminiLine)
	}{
		{"events", []string{"-p", "What do my notes say?", "-o", "stream-json", "-y"}, readThenAnswer, 0, checkGeminiEvents},
		{"turn limit", []string{"-p", "list", "-o", "stream-json", "-y", "--max-turns", "1"}, loop, 53, func(t *testing.T, lines []geminiLine) {
			if last := lines[len(lines)-1]; last.Type != "result" || last.Status != "error" || last.Error == nil || last.Error.Type != "MaxTurnsError" {
				t.Errorf("last line = %+v", last)
			}
		}},
		{"input error", []string{"-p", "hi", "-o", "stream-json", "--include-directories", "nowhere"}, readThenAnswer, 42, nil},
		{"companion run keeps the SDK shape", []string{"run", "-p", "What do my notes say?", "-o", "stream-json", "-y"}, readThenAnswer, 0, checkSDKShape},
		{"partial messages keep the SDK shape", []string{"-p", "What do my notes say?", "-o", "stream-json", "-y", "--include-partial-messages"}, readThenAnswer, 0, checkSDKShape},
		{"companion run's turn limit stays 1", []string{"run", "-p", "list", "-o", "stream-json", "-y", "--max-turns", "1"}, loop, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(companionBin(t), append(tt.args, "--script", script(t, tt.script))...)
			cmd.Env, cmd.Dir = env(t), workspace(t, map[string]string{"notes.txt": "remember the milk\n"})
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != tt.code {
				t.Fatalf("exit %d, want %d (%v)\n%s\n%s", code, tt.code, err, stdout.String(), stderr.String())
			}
			var lines []geminiLine
			for _, l := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
				var g geminiLine
				if l != "" && json.Unmarshal([]byte(l), &g) != nil {
					t.Fatalf("not JSON: %q", l)
				}
				lines = append(lines, g)
			}
			if tt.check != nil {
				tt.check(t, lines)
			}
		})
	}
}

// checkGeminiEvents checks a read-then-answer run's Gemini CLI events.
func checkGeminiEvents(t *testing.T, lines []geminiLine) {
	t.Helper()
	var types []string
	answer := ""
	for _, l := range lines {
		types = append(types, l.Type)
		if l.Timestamp == "" {
			t.Errorf("%s line without a timestamp", l.Type)
		}
		if l.Type == "message" && l.Role == "assistant" {
			answer += l.Content
			if !l.Delta {
				t.Errorf("assistant message without delta: %+v", l)
			}
		}
	}
	want := "init message tool_use tool_result message message result"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("events %q, want %q", got, want)
	}
	init, user, use, res, last := lines[0], lines[1], lines[2], lines[3], lines[len(lines)-1]
	switch {
	case init.SessionID == "":
		t.Errorf("init = %+v", init)
	case user.Role != "user" || user.Content != "What do my notes say?":
		t.Errorf("user message = %+v", user)
	case use.ToolName != "read_file" || use.ToolID == "" || !strings.Contains(string(use.Parameters), "notes.txt"):
		t.Errorf("tool_use = %+v", use)
	case res.ToolID != use.ToolID || res.Status != "success" || !strings.Contains(res.Output, "remember the milk"):
		t.Errorf("tool_result = %+v", res)
	case !strings.Contains(answer, "The notes say milk."):
		t.Errorf("answer %q", answer)
	case last.Status != "success" || last.Error != nil || last.Stats == nil || last.Stats.ToolCalls != 1:
		t.Errorf("result = %+v", last)
	}
}

// checkSDKShape checks that the stream starts with the SDK's system/init
// line and carries no Gemini CLI event.
func checkSDKShape(t *testing.T, lines []geminiLine) {
	t.Helper()
	if len(lines) == 0 || lines[0].Type != "system" || lines[0].Subtype != "init" {
		t.Errorf("first line = %+v", lines)
	}
	for _, l := range lines {
		if l.Type == "init" || l.Type == "tool_use" || l.Type == "message" {
			t.Errorf("a Gemini CLI event in the SDK shape: %+v", l)
		}
	}
}
