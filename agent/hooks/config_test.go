package hooks

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		raw     string
		want    map[string][]Hook
		wantErr []error
	}{
		{
			name: "flat shape inside settings",
			raw: `{"model": "x", "hooks": {"BeforeTool": [
				{"matcher": "run_shell_command|write_file", "command": "check.sh", "timeout": 5000},
				{"command": "log.sh"}]}}`,
			want: map[string][]Hook{BeforeTool: {
				{Matcher: "run_shell_command|write_file", Command: "check.sh", Timeout: 5 * time.Second},
				{Command: "log.sh", Timeout: DefaultTimeout},
			}},
		},
		{
			name: "nested shape, hooks object alone",
			raw: `{"AfterTool": [{"matcher": "write_file", "hooks": [
				{"type": "command", "command": "fmt.sh", "timeout": 250, "name": "fmt"},
				{"type": "command", "command": "lint.sh"}]}]}`,
			want: map[string][]Hook{AfterTool: {
				{Name: "fmt", Matcher: "write_file", Command: "fmt.sh", Timeout: 250 * time.Millisecond},
				{Matcher: "write_file", Command: "lint.sh", Timeout: DefaultTimeout},
			}},
		},
		{
			name: "Claude Code event names",
			raw: `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "a", "timeout": 5}]}],
				"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "b"}]}],
				"Stop": [{"command": "c"}], "PreCompact": [{"command": "d"}], "PostToolUse": [{"command": "e"}]}}`,
			want: map[string][]Hook{
				BeforeTool:  {{Matcher: "*", Command: "a", Timeout: 5 * time.Second, Claude: true}},
				BeforeAgent: {{Command: "b", Timeout: DefaultTimeout, Claude: true}},
				AfterAgent:  {{Command: "c", Timeout: DefaultTimeout, Claude: true}},
				PreCompress: {{Command: "d", Timeout: DefaultTimeout, Claude: true}},
				AfterTool:   {{Command: "e", Timeout: DefaultTimeout, Claude: true}},
			},
		},
		{
			name: "bad entries skipped, good ones kept",
			raw: `{"BeforeTool": [{"matcher": "(", "command": "a"}, {"command": ""},
				{"hooks": [{"type": "prompt", "command": "x"}]}, {"command": "ok", "timeout": -1},
				{"command": "both", "hooks": []}, {"command": "good"}],
				"Befor": [{"command": "typo"}]}`,
			want:    map[string][]Hook{BeforeTool: {{Command: "good", Timeout: DefaultTimeout}}},
			wantErr: []error{ErrBadConfig, ErrUnknownEvent},
		},
		{
			name: "tool matchers in any agent's names; one that names no tool is an error",
			raw: `{"PreToolUse": [{"matcher": "Bash", "command": "a"}, {"matcher": "Edit|Write", "command": "b"},
				{"matcher": "mcp__.*", "command": "c"}, {"matcher": "Bsh", "command": "typo"}],
				"BeforeTool": [{"matcher": "search_file_content", "command": "d"}, {"matcher": "Shell", "command": "typo"}],
				"SessionStart": [{"matcher": "startup", "command": "e"}]}`,
			want: map[string][]Hook{
				BeforeTool: {{Matcher: "search_file_content", Command: "d", Timeout: DefaultTimeout},
					{Matcher: "Bash", Command: "a", Timeout: DefaultTimeout, Claude: true},
					{Matcher: "Edit|Write", Command: "b", Timeout: DefaultTimeout, Claude: true},
					{Matcher: "mcp__.*", Command: "c", Timeout: DefaultTimeout, Claude: true}},
				SessionStart: {{Matcher: "startup", Command: "e", Timeout: DefaultTimeout}},
			},
			wantErr: []error{ErrBadConfig},
		},
		{
			name:    "not an object",
			raw:     `[1, 2]`,
			want:    map[string][]Hook{},
			wantErr: []error{ErrBadConfig},
		},
		{
			name: "disabled by name or command",
			raw: `{"hooks": {"disabled": ["noisy", "slow.sh"], "SessionStart": [
				{"name": "noisy", "command": "a"}, {"command": "slow.sh"}, {"command": "kept"}]}}`,
			want: map[string][]Hook{SessionStart: {{Command: "kept", Timeout: DefaultTimeout}}},
		},
		{
			name: "all off",
			raw:  `{"hooks": {"enabled": false, "SessionStart": [{"command": "a"}]}}`,
			want: map[string][]Hook{},
		},
		{name: "empty", raw: ``, want: map[string][]Hook{}},
		{name: "null", raw: `null`, want: map[string][]Hook{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := Parse(json.RawMessage(tt.raw))
			if !reflect.DeepEqual(cfg.Hooks, tt.want) {
				t.Errorf("hooks:\n got %+v\nwant %+v", cfg.Hooks, tt.want)
			}
			if len(tt.wantErr) == 0 && err != nil {
				t.Errorf("unexpected error: %v", err)
			}
			for _, want := range tt.wantErr {
				if !errors.Is(err, want) {
					t.Errorf("error %v does not wrap %v", err, want)
				}
			}
		})
	}
}

func TestConfigMergeAndEmpty(t *testing.T) {
	t.Parallel()
	user := Config{Hooks: map[string][]Hook{BeforeTool: {{Command: "u"}}}}
	project := Config{Hooks: map[string][]Hook{BeforeTool: {{Command: "p"}}, AfterTool: {{Command: "q"}}}}
	got := user.Merge(project)
	want := map[string][]Hook{BeforeTool: {{Command: "u"}, {Command: "p"}}, AfterTool: {{Command: "q"}}}
	if !reflect.DeepEqual(got.Hooks, want) {
		t.Errorf("Merge = %+v, want %+v", got.Hooks, want)
	}
	if got.Empty() || !(Config{}).Empty() {
		t.Errorf("Empty: merged %v, zero %v", got.Empty(), (Config{}).Empty())
	}
}
