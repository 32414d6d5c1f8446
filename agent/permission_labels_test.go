package agent

import (
	"strings"
	"testing"

	"companion/tools"
)

// TestOptionLabels pins the permission vocabulary every front end shows:
// plain words, the scope stated ("this time", "for this session", "in
// this project"), names written as text (no backticks), and the ACP
// option kinds unchanged.
func TestOptionLabels(t *testing.T) {
	root := "/w"
	tests := []struct {
		name string
		c    tools.Confirmation
		want []string
	}{
		{"edit", tools.Confirmation{Type: tools.ConfirmEdit, Path: "/w/greet.py"}, []string{
			"proceed_once/allow_once: Allow this time",
			"proceed_always/allow_always: Allow edits to greet.py for this session",
			"proceed_always_tool/allow_always: Allow all edits for this session",
			"proceed_always_save/allow_always: Allow edits to greet.py in this project",
			"reject_once/reject_once: Reject",
			"reject_always/reject_always: Reject for this session",
		}},
		{"exec", tools.Confirmation{Type: tools.ConfirmExec, Command: "echo hi", Parsed: true,
			Commands: []tools.ShellCommand{{Words: []string{"echo", "hi"}}}}, []string{
			"proceed_once/allow_once: Allow this time",
			"proceed_always/allow_always: Allow echo for this session",
			"proceed_always_save/allow_always: Allow echo in this project",
			"reject_once/reject_once: Reject",
			"reject_always/reject_always: Reject for this session",
		}},
		{"exec, two programs", tools.Confirmation{Type: tools.ConfirmExec, Command: "ls && git status", Parsed: true,
			Commands: []tools.ShellCommand{{Words: []string{"ls"}}, {Words: []string{"git", "status"}}}}, []string{
			"proceed_once/allow_once: Allow this time",
			"proceed_always/allow_always: Allow ls and git status for this session",
			"proceed_always_save/allow_always: Allow ls and git status in this project",
			"reject_once/reject_once: Reject",
			"reject_always/reject_always: Reject for this session",
		}},
		{"mcp", tools.Confirmation{Type: tools.ConfirmMCP, Server: "docs", Tool: "search"}, []string{
			"proceed_once/allow_once: Allow this time",
			"proceed_always/allow_always: Allow search from docs for this session",
			"proceed_always_server/allow_always: Allow every tool of docs for this session",
			"reject_once/reject_once: Reject",
			"reject_always/reject_always: Reject for this session",
		}},
		{"fetch", tools.Confirmation{Type: tools.ConfirmInfo}, []string{
			"proceed_once/allow_once: Allow this time",
			"proceed_always/allow_always: Allow for this session",
			"reject_once/reject_once: Reject",
			"reject_always/reject_always: Reject for this session",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, o := range options(&tt.c, root) {
				got = append(got, o.ID+"/"+string(o.Kind)+": "+o.Label)
				if strings.Contains(o.Label, "`") {
					t.Errorf("label %q holds a backtick", o.Label)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("options =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
