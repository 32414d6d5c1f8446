package headless

import (
	"testing"
	"time"

	"companion/agent"
)

// TestToolsOf: one prompt's tool figures from its records and the
// session's running totals: per tool counts and time, and decisions in
// Gemini CLI's words and companion's.
func TestToolsOf(t *testing.T) {
	before := agent.Totals{ToolTime: time.Second, Tools: map[string]agent.ToolUse{"read_file": {Calls: 1, Time: time.Second}},
		Decisions: agent.Decisions{Policy: 1}}
	after := agent.Totals{ToolTime: 1600 * time.Millisecond,
		Tools: map[string]agent.ToolUse{"read_file": {Calls: 3, Time: 1200 * time.Millisecond},
			"run_shell_command": {Calls: 1, Failed: 1, Time: 400 * time.Millisecond}},
		Decisions: agent.Decisions{Policy: 2, User: 1, Rejected: 1, Mode: 1}}
	calls := []toolCallRecord{
		{Name: "read_file", Status: string(agent.ToolCompleted)},
		{Name: "read_file", Status: string(agent.ToolCompleted)},
		{Name: "run_shell_command", Status: string(agent.ToolFailed), IsError: true},
		{Name: "read_file", Status: "in_progress"},
	}
	got := toolsOf(outcome{before: before, after: after}, calls)
	if got.TotalCalls != 3 || got.TotalSuccess != 2 || got.TotalFail != 1 || got.TotalDurationMS != 600 {
		t.Errorf("totals = %+v", got)
	}
	if r := got.ByName["read_file"]; r.Count != 2 || r.Success != 2 || r.DurationMS != 200 {
		t.Errorf("read_file = %+v", r)
	}
	if r := got.ByName["run_shell_command"]; r.Count != 1 || r.Fail != 1 || r.DurationMS != 400 {
		t.Errorf("run_shell_command = %+v", r)
	}
	want := geminiDecisions{Accept: 1, Reject: 1, AutoAccept: 2}
	if got.TotalDecisions != want || got.DecidedBy != (agent.Decisions{Policy: 1, Mode: 1, User: 1, Rejected: 1}) {
		t.Errorf("decisions = %+v / %+v", got.TotalDecisions, got.DecidedBy)
	}
}
