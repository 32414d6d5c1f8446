package agent

import (
	"context"
	"strings"
	"testing"

	"companion/agent/hooks"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

// answering is a hook that prints answer.
func answering(answer string) hooks.Hook {
	return hooks.Hook{Name: "test", Call: func(context.Context, []byte) ([]byte, error) { return []byte(answer), nil }}
}

func TestBeforeHooksStep(t *testing.T) {
	tests := []struct {
		name         string
		answer       string
		wantRefusal  bool
		wantDecision hooks.Decision
		wantText     string
	}{
		{"no opinion", `{}`, false, "", "hi"},
		{"deny", `{"decision":"deny","reason":"not today"}`, true, hooks.Deny, "hi"},
		{"ask", `{"decision":"ask"}`, false, hooks.Ask, "hi"},
		{"new input", `{"hookSpecificOutput":{"tool_input":{"text":"changed"}}}`, false, "", "changed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := hooks.Config{Hooks: map[string][]hooks.Hook{hooks.BeforeTool: {answering(tt.answer)}}}
			s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) { o.Hooks = hooks.NewRunner(cfg, hooks.Options{}) })
			p := prepareCall(s, "echo", map[string]any{"text": "hi"})
			var n nextRecorder
			s.eng.beforeHooksStep(context.Background(), p, n.next)
			if !n.ran {
				t.Fatal("next did not run: a refusal waits for the call's announcement")
			}
			if (p.refusal != "") != tt.wantRefusal || p.hookDecision != tt.wantDecision {
				t.Errorf("refusal %q, decision %q; want refusal %v, decision %q", p.refusal, p.hookDecision, tt.wantRefusal, tt.wantDecision)
			}
			if got := p.inv.Title(); got != "Echo "+tt.wantText {
				t.Errorf("call title = %q, want the input text %q in it", got, tt.wantText)
			}
		})
	}
}

func TestAfterHooksStep(t *testing.T) {
	cfg := hooks.Config{Hooks: map[string][]hooks.Hook{hooks.AfterTool: {
		answering(`{"decision":"block","reason":"looks wrong","hookSpecificOutput":{"additionalContext":"see docs"}}`)}}}
	s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) { o.Hooks = hooks.NewRunner(cfg, hooks.Options{}) })
	p := prepareCall(s, "echo", map[string]any{"text": "hi"})
	n := nextRecorder{res: &tools.Result{Text: "out"}}
	s.eng.afterHooksStep(context.Background(), p, n.next)
	if !n.ran || !strings.Contains(p.res.Text, "looks wrong") || !strings.HasSuffix(p.res.Text, "see docs") {
		t.Errorf("result = %q, want the hook's objection and context", p.res.Text)
	}
}
