package agent

import (
	"context"
	"encoding/json"
	"testing"

	"companion/internal/testkit/agenttest"
	"companion/tools"
	"companion/tools/policy"
)

// escapeTool is a shell-like tool whose calls may ask to leave the
// sandbox.
type escapeTool struct{}

func (escapeTool) Name() string            { return "fake_shell" }
func (escapeTool) Description() string     { return "Run a command." }
func (escapeTool) Kind() tools.Kind        { return tools.KindExecute }
func (escapeTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (escapeTool) Prepare(_ *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	var p struct {
		Command string `json:"command"`
		Outside bool   `json:"outside_sandbox"`
	}
	json.Unmarshal(args, &p)
	return &escapeCall{command: p.Command, outside: p.Outside}, nil
}

type escapeCall struct {
	command          string
	outside, allowed bool
}

func (c *escapeCall) Title() string               { return c.command }
func (c *escapeCall) Locations() []tools.Location { return nil }
func (c *escapeCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	return &tools.Confirmation{Type: tools.ConfirmExec, Command: c.command, RootCommands: []string{"touch"},
		Commands: []tools.ShellCommand{{Words: []string{"touch", "/x"}}}}, nil
}
func (c *escapeCall) Execute(context.Context, tools.Output) (*tools.Result, error) {
	return &tools.Result{Text: "ran"}, nil
}
func (c *escapeCall) OutsideSandbox() bool { return c.outside }
func (c *escapeCall) AllowOutsideSandbox() { c.allowed = true }

// TestPermitOutsideSandbox: a call that leaves the sandbox is asked in
// every mode, even after an "always allow" of its command, with only
// "allow once" and "reject"; only "allow once" lets it out.
func TestPermitOutsideSandbox(t *testing.T) {
	tests := []struct {
		name        string
		mode        string
		always      bool
		answer      string
		wantNext    bool
		wantOutcome string
	}{
		{"yolo still asks; allow", ModeYolo, false, ProceedOnce, true, ""},
		{"auto edit still asks; reject", ModeAutoEdit, false, RejectOnceID, false, OutcomeRejected},
		{"always-allowed command still asks", ModeDefault, true, RejectOnceID, false, OutcomeRejected},
		{"an always answer is refused", ModeYolo, true, ProceedAlways, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asker := &fakeAsker{answer: Answer{OptionID: tt.answer}}
			s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) {
				o.Tools, o.Mode, o.Asker = tools.NewRegistry(escapeTool{}), tt.mode, asker
			})
			if tt.always {
				s.policy.Remember(true, policy.Rule{Tool: "fake_shell"})
			}
			p := prepareCall(s, "fake_shell", map[string]any{"command": "touch /x", "outside_sandbox": true})
			s.eng.announceStep(context.Background(), p, func(context.Context, *prepared) {})
			var n nextRecorder
			s.eng.permissionStep(context.Background(), p, n.next)
			if asker.count() != 1 {
				t.Fatalf("asked %d times, want once", asker.count())
			}
			q := asker.asked[0]
			if len(q.Options) != 2 || q.Options[0].Kind != AllowOnce || q.Options[1].Kind != RejectOnce {
				t.Errorf("options = %+v, want allow once and reject only", q.Options)
			}
			if n.ran != tt.wantNext || p.inv.(*escapeCall).allowed != tt.wantNext {
				t.Errorf("ran = %v, allowed = %v; want %v", n.ran, p.inv.(*escapeCall).allowed, tt.wantNext)
			}
			if p.outcome != tt.wantOutcome {
				t.Errorf("outcome = %q, want %q", p.outcome, tt.wantOutcome)
			}
		})
	}
}
