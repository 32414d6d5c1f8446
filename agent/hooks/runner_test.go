package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fixedNow is the clock of every test runner.
func fixedNow() time.Time { return time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC) }

// newRunner returns a runner with hooks for event only.
func newRunner(event string, hooks ...Hook) *Runner {
	return NewRunner(Config{Hooks: map[string][]Hook{event: hooks}}, Options{Now: fixedNow})
}

// sh is a hook running command with a generous timeout.
func sh(command string) Hook { return Hook{Command: command, Timeout: 30 * time.Second} }

func TestRunDecisions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		hooks   []Hook
		want    Outcome // Errors are checked by wantErr
		wantErr []error
	}{
		{
			name:  "deny",
			hooks: []Hook{sh(`echo '{"decision": "deny", "reason": "no shell on Fridays"}'`)},
			want:  Outcome{Decision: Deny, Reason: "no shell on Fridays"},
		},
		{
			name:  "ask",
			hooks: []Hook{sh(`echo '{"decision": "ask", "reason": "touches prod", "systemMessage": "careful"}'`)},
			want:  Outcome{Decision: Ask, Reason: "touches prod", SystemMessage: "careful"},
		},
		{
			name:  "allow",
			hooks: []Hook{sh(`echo '{"decision": "allow"}'`)},
			want:  Outcome{Decision: Allow},
		},
		{
			name:  "approve is allow",
			hooks: []Hook{sh(`echo '{"decision": "approve"}'`)},
			want:  Outcome{Decision: Allow},
		},
		{
			name:  "permissionDecision at top level",
			hooks: []Hook{sh(`echo '{"permissionDecision": "deny", "permissionDecisionReason": "nope"}'`)},
			want:  Outcome{Decision: Deny, Reason: "nope"},
		},
		{
			name: "permissionDecision in hookSpecificOutput",
			hooks: []Hook{sh(`echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse",
				"permissionDecision": "ask", "permissionDecisionReason": "check", "additionalContext": "ctx"}}'`)},
			want: Outcome{Decision: Ask, Reason: "check", AdditionalContext: "ctx"},
		},
		{
			name:  "exit 2 blocks with stderr",
			hooks: []Hook{sh(`echo '{"decision": "allow"}'; echo "rm is not allowed" >&2; exit 2`)},
			want:  Outcome{Decision: Block, Reason: "rm is not allowed"},
		},
		{
			name:  "plain stdout is a message",
			hooks: []Hook{sh(`echo "formatted 3 files"`)},
			want:  Outcome{SystemMessage: "formatted 3 files"},
		},
		{
			name:  "empty stdout says nothing",
			hooks: []Hook{sh(`true`)},
			want:  Outcome{},
		},
		{
			name:    "invalid JSON is a failure",
			hooks:   []Hook{sh(`echo '{"decision": "deny",'`)},
			want:    Outcome{},
			wantErr: []error{ErrBadOutput},
		},
		{
			name:    "unknown decision is a failure",
			hooks:   []Hook{sh(`echo '{"decision": "maybe"}'`)},
			want:    Outcome{},
			wantErr: []error{ErrBadOutput},
		},
		{
			name:    "other exit status is a failure",
			hooks:   []Hook{sh(`echo '{"decision": "deny"}'; echo oops >&2; exit 3`)},
			want:    Outcome{},
			wantErr: []error{ErrExit},
		},
		{
			name: "most restrictive wins, messages join",
			hooks: []Hook{
				sh(`echo '{"decision": "allow", "systemMessage": "one"}'`),
				sh(`echo '{"decision": "deny", "reason": "first", "systemMessage": "two"}'`),
				sh(`echo '{"decision": "ask", "reason": "weaker"}'`),
				sh(`echo "stdout ignored"; echo blocked >&2; exit 2`),
			},
			want: Outcome{Decision: Deny, Reason: "first\nblocked", SystemMessage: "one\ntwo"},
		},
		{
			name:  "ask beats allow",
			hooks: []Hook{sh(`echo '{"decision": "ask"}'`), sh(`echo '{"decision": "allow"}'`)},
			want:  Outcome{Decision: Ask},
		},
		{
			name: "failure does not stop the others",
			hooks: []Hook{sh(`exit 1`), sh(`echo '{"decision": "allow", "continue": false, "stopReason": "done",
				"suppressOutput": true}'`)},
			want:    Outcome{Decision: Allow, Stop: true, StopReason: "done", SuppressOutput: true},
			wantErr: []error{ErrExit},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(BeforeTool, tt.hooks...)
			got, err := r.Run(context.Background(), BeforeTool, Input{ToolName: "run_shell_command", Cwd: t.TempDir()})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			checkErrors(t, got.Errors, tt.wantErr)
			got.Errors = nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Outcome:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// checkErrors asserts errs are *HookError values wrapping want, in order.
func checkErrors(t *testing.T, errs, want []error) {
	t.Helper()
	if len(errs) != len(want) {
		t.Fatalf("errors = %v, want %d wrapping %v", errs, len(want), want)
	}
	for i, err := range errs {
		var he *HookError
		if !errors.As(err, &he) || !errors.Is(err, want[i]) {
			t.Errorf("error %d = %#v, want a *HookError wrapping %v", i, err, want[i])
		}
	}
}

func TestRunStartFailure(t *testing.T) {
	t.Parallel()
	r := newRunner(SessionStart, sh(`true`))
	missing := filepath.Join(t.TempDir(), "gone")
	got, err := r.Run(context.Background(), SessionStart, Input{Cwd: missing})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	checkErrors(t, got.Errors, []error{ErrStart})
}

func TestRunModifiesInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := newRunner(BeforeTool,
		sh(`echo '{"hookSpecificOutput": {"tool_input": {"command": "ls -la", "step": 1}}}'`),
		sh(`cat > seen.json; echo '{"decision": "allow", "hookSpecificOutput": {"updatedInput": {"command": "ls -la /tmp"}}}'`),
	)
	in := Input{Cwd: dir, ToolName: "run_shell_command", Data: map[string]any{"tool_input": map[string]any{"command": "ls"}}}
	got, err := r.Run(context.Background(), BeforeTool, in)
	if err != nil || len(got.Errors) > 0 {
		t.Fatalf("Run: %v %v", err, got.Errors)
	}
	if want := map[string]any{"command": "ls -la /tmp"}; !reflect.DeepEqual(got.ToolInput, want) {
		t.Errorf("ToolInput = %v, want %v", got.ToolInput, want)
	}
	seen := readJSON(t, filepath.Join(dir, "seen.json"))
	if want := map[string]any{"command": "ls -la", "step": 1.0}; !reflect.DeepEqual(seen["tool_input"], want) {
		t.Errorf("second hook saw tool_input %v, want the first hook's %v", seen["tool_input"], want)
	}
	if want := map[string]any{"command": "ls"}; !reflect.DeepEqual(in.Data["tool_input"], want) {
		t.Errorf("caller's Data changed: %v", in.Data)
	}
}

func TestRunInputJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := newRunner(AfterTool, sh(`cat > in.json; pwd > pwd.txt; printf %s "$COMPANION_PROJECT_DIR" > env.txt`))
	in := Input{
		SessionID: "sess-1", TranscriptPath: "/tmp/t.jsonl", Cwd: dir, ToolName: "write_file",
		Data: map[string]any{
			"tool_input":    map[string]any{"file_path": "a.go"},
			"tool_response": map[string]any{"llmContent": "ok"},
			"session_id":    "overridden",
		},
	}
	if _, err := r.Run(context.Background(), AfterTool, in); err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := readJSON(t, filepath.Join(dir, "in.json"))
	want := map[string]any{
		"session_id":      "sess-1",
		"transcript_path": "/tmp/t.jsonl",
		"cwd":             dir,
		"hook_event_name": "AfterTool",
		"timestamp":       "2025-03-04T05:06:07Z",
		"tool_name":       "write_file",
		"tool_input":      map[string]any{"file_path": "a.go"},
		"tool_response":   map[string]any{"llmContent": "ok"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("stdin:\n got %v\nwant %v", got, want)
	}
	for file, want := range map[string]string{"pwd.txt": dir, "env.txt": dir} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || strings.TrimSpace(string(b)) != want {
			t.Errorf("%s = %q (%v), want %q", file, b, err, want)
		}
	}
}

func TestRunMatcher(t *testing.T) {
	t.Parallel()
	hooks := []Hook{
		{Matcher: "run_shell_command|write_file", Command: `echo shell-or-write`, Timeout: 30 * time.Second},
		{Matcher: "read_.*", Command: `echo read`, Timeout: 30 * time.Second},
		{Matcher: "write", Command: `echo write-exact`, Timeout: 30 * time.Second},
		{Command: `echo all`, Timeout: 30 * time.Second},
		{Matcher: "*", Command: `echo star`, Timeout: 30 * time.Second},
	}
	tests := []struct {
		tool, trigger string
		want          string
	}{
		{tool: "write_file", want: "shell-or-write\nall\nstar"},
		{tool: "run_shell_command", want: "shell-or-write\nall\nstar"},
		{tool: "read_many_files", want: "read\nall\nstar"},
		{tool: "write", want: "write-exact\nall\nstar"},
		{tool: "rewrite_file", want: "all\nstar"},
		{trigger: "read_x", want: "read\nall\nstar"},
		{want: "shell-or-write\nread\nwrite-exact\nall\nstar"},
	}
	r := newRunner(BeforeTool, hooks...)
	for _, tt := range tests {
		t.Run(tt.tool+tt.trigger, func(t *testing.T) {
			t.Parallel()
			got, err := r.Run(context.Background(), BeforeTool, Input{ToolName: tt.tool, Trigger: tt.trigger})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if got.SystemMessage != tt.want {
				t.Errorf("hooks run:\n%s\nwant:\n%s", got.SystemMessage, tt.want)
			}
		})
	}
}

func TestRunUnknownEventAndNil(t *testing.T) {
	t.Parallel()
	if _, err := newRunner(BeforeTool).Run(context.Background(), "PreToolUse", Input{}); !errors.Is(err, ErrUnknownEvent) {
		t.Errorf("unknown event: err = %v, want ErrUnknownEvent", err)
	}
	var r *Runner
	got, err := r.Run(context.Background(), BeforeTool, Input{})
	if err != nil || !reflect.DeepEqual(got, Outcome{}) || r.Has(BeforeTool) {
		t.Errorf("nil runner: %+v, %v", got, err)
	}
	if !newRunner(AfterTool, sh("true")).Has(AfterTool) || newRunner(AfterTool, sh("true")).Has(BeforeTool) {
		t.Error("Has does not reflect the configured events")
	}
}

// readJSON decodes a JSON object file.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}
