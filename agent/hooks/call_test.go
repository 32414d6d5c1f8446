package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRunCallbackHooks(t *testing.T) {
	tests := []struct {
		name         string
		call         func(ctx context.Context, in []byte) ([]byte, error)
		timeout      time.Duration
		wantDecision Decision
		wantReason   string
		wantErr      error
	}{
		{"blocks", func(context.Context, []byte) ([]byte, error) {
			return []byte(`{"decision":"block","reason":"not today"}`), nil
		}, time.Second, Block, "not today", nil},
		{"Claude shape deny", func(context.Context, []byte) ([]byte, error) {
			return []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}`), nil
		}, time.Second, Deny, "no rm", nil},
		{"empty answer decides nothing", func(context.Context, []byte) ([]byte, error) { return nil, nil }, time.Second, "", "", nil},
		{"error is a failed hook", func(context.Context, []byte) ([]byte, error) {
			return nil, errors.New("sdk gone")
		}, time.Second, "", "", errors.New("sdk gone")},
		{"bad answer is a failed hook", func(context.Context, []byte) ([]byte, error) {
			return []byte(`{"decision":"maybe"}`), nil
		}, time.Second, "", "", ErrBadOutput},
		{"timeout", func(ctx context.Context, _ []byte) ([]byte, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, 20 * time.Millisecond, "", "", ErrTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got map[string]any
			call := func(ctx context.Context, in []byte) ([]byte, error) {
				json.Unmarshal(in, &got)
				return tt.call(ctx, in)
			}
			r := NewRunner(Config{Hooks: map[string][]Hook{BeforeTool: {{Name: "sdk:h1", Matcher: "run_shell_command", Call: call, Timeout: tt.timeout}}}}, Options{})
			out, err := r.Run(context.Background(), BeforeTool, Input{SessionID: "s", Cwd: t.TempDir(), ToolName: "run_shell_command",
				Data: map[string]any{"tool_input": map[string]any{"command": "ls"}, "tool_use_id": "call_1"}})
			if err != nil {
				t.Fatal(err)
			}
			if out.Decision != tt.wantDecision || out.Reason != tt.wantReason {
				t.Errorf("outcome = %q %q, want %q %q", out.Decision, out.Reason, tt.wantDecision, tt.wantReason)
			}
			if got["tool_use_id"] != "call_1" || got["hook_event_name"] != BeforeTool {
				t.Errorf("callback input = %v", got)
			}
			switch {
			case tt.wantErr == nil && len(out.Errors) > 0:
				t.Errorf("errors = %v", out.Errors)
			case tt.wantErr != nil && (len(out.Errors) != 1 || (!errors.Is(out.Errors[0], tt.wantErr) && !strings.Contains(out.Errors[0].Error(), tt.wantErr.Error()))):
				t.Errorf("errors = %v, want %v", out.Errors, tt.wantErr)
			}
		})
	}
}

func TestEventName(t *testing.T) {
	for key, want := range map[string]string{"PreToolUse": BeforeTool, "PostToolUse": AfterTool, "Stop": AfterAgent, "SessionStart": SessionStart} {
		if got, ok := EventName(key); !ok || got != want {
			t.Errorf("EventName(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
	if _, ok := EventName("Whenever"); ok {
		t.Error("EventName accepted an unknown event")
	}
}
