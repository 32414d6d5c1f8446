package agent

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
)

func TestPlanTodos(t *testing.T) {
	tests := []struct {
		name string
		plan string
		want []string // content:status
	}{
		{"numbered", "# Plan\n1. Add the store\n2) Wire it up\n", []string{"Add the store:pending", "Wire it up:pending"}},
		{"bullets and boxes", "- [ ] Write tests\n* [x] Read the code\n+ Ship it\n  - nested step", []string{"Write tests:pending", "Read the code:completed", "Ship it:pending", "nested step:pending"}},
		{"prose only", "Change store.go to cache reads.\n\nRisk: stale data.", nil},
		{"code fence skipped", "1. Edit main.go\n```go\n- x := 1\n```\n2. Test", []string{"Edit main.go:pending", "Test:pending"}},
		{"not a list", "-not a list\n1.5 percent\n**bold**", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, e := range planTodos(tt.plan) {
				got = append(got, e.Content+":"+e.Status)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("planTodos = %q, want %q", got, tt.want)
			}
		})
	}
}

const testPlan = "# Cache reads\n1. Add the cache to store.go\n2. Test it"

// lastResponse is the text of the last function response the model read.
func lastResponse(t *testing.T, m *agenttest.Model) string {
	t.Helper()
	reqs := m.Requests()
	cs := reqs[len(reqs)-1].Contents
	b, err := json.Marshal(cs[len(cs)-1])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPlanApproval: each answer to exit_plan_mode and enter_plan_mode
// leaves the session in the right mode with the right todo list, and
// tells the model what happened.
func TestPlanApproval(t *testing.T) {
	exit := agenttest.Call("exit_plan_mode", map[string]any{"plan": testPlan})
	enter := agenttest.Call("enter_plan_mode", map[string]any{"reason": "touches every package"})
	steps := []string{"Add the cache to store.go", "Test it"}
	tests := []struct {
		name      string
		start     string
		call      *model.Chunk
		answer    Answer
		wantMode  string
		wantTodos []string
		wantRead  string
		wantAsked []string // option ids offered
	}{
		{"accept edits", ModePlan, exit, Answer{OptionID: PlanAcceptEdits}, ModeAutoEdit, steps, "now in auto_edit mode",
			[]string{PlanAcceptEdits, PlanAskEdits, PlanKeep}},
		{"ask edits", ModePlan, exit, Answer{OptionID: PlanAskEdits}, ModeDefault, steps, "now in default mode", nil},
		{"keep planning", ModePlan, exit, Answer{OptionID: PlanKeep, Message: "use sync.Map"}, ModePlan, nil, "keep planning", nil},
		{"keep planning note", ModePlan, exit, Answer{OptionID: PlanKeep, Message: "use sync.Map"}, ModePlan, nil, "Their note: use sync.Map", nil},
		{"cancelled", ModePlan, exit, Answer{Cancelled: true}, ModePlan, nil, "cancelled", nil},
		{"bogus answer", ModePlan, exit, Answer{OptionID: ProceedOnce}, ModePlan, nil, "not one of the options", nil},
		{"exit outside plan mode", ModeDefault, exit, Answer{OptionID: PlanAcceptEdits}, ModeDefault, nil, "only for plan mode", nil},
		{"enter agreed", ModeAutoEdit, enter, Answer{OptionID: PlanEnter}, ModePlan, nil, "now in plan mode",
			[]string{PlanEnter, PlanStay}},
		{"enter refused", ModeDefault, enter, Answer{OptionID: PlanStay}, ModeDefault, nil, "go on without planning", nil},
		{"enter in plan mode", ModePlan, enter, Answer{OptionID: PlanEnter}, ModePlan, nil, "already in plan mode", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ask := &fakeAsker{answer: tt.answer}
			m := &agenttest.Model{Turns: []agenttest.Turn{{Chunks: []*model.Chunk{tt.call}}, {Chunks: []*model.Chunk{agenttest.Text("ok")}}}}
			s, rec := newTestSession(t, m, func(o *Options) { o.Asker, o.Mode = ask, tt.start })
			if _, err := s.Prompt(context.Background(), userText("cache reads")); err != nil {
				t.Fatal(err)
			}
			if got := s.Mode(); got != tt.wantMode {
				t.Errorf("mode = %q, want %q", got, tt.wantMode)
			}
			var todos []string
			for _, e := range s.todos.plan {
				todos = append(todos, e.Content)
			}
			if !slices.Equal(todos, tt.wantTodos) {
				t.Errorf("todos = %q, want %q", todos, tt.wantTodos)
			}
			if got := lastResponse(t, m); !strings.Contains(got, tt.wantRead) {
				t.Errorf("the model read %s, want %q in it", got, tt.wantRead)
			}
			changed := slices.ContainsFunc(rec.All(), func(e Event) bool { return e == Event(ModeChanged{ID: tt.wantMode}) })
			if changed != (tt.wantMode != tt.start) {
				t.Errorf("ModeChanged{%q} emitted = %v", tt.wantMode, changed)
			}
			if tt.wantAsked != nil {
				checkPlanCard(t, ask, tt.call, tt.wantAsked)
			}
		})
	}
}

// checkPlanCard checks the one question asked: its options, and the plan
// or reason on the card.
func checkPlanCard(t *testing.T, ask *fakeAsker, c *model.Chunk, want []string) {
	t.Helper()
	if ask.count() != 1 {
		t.Fatalf("asked %d times, want 1", ask.count())
	}
	q := ask.asked[0]
	var ids []string
	for _, o := range q.Options {
		ids = append(ids, o.ID)
	}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("options = %q, want %q", ids, want)
	}
	args := c.Parts[0].FunctionCall.Args
	shown := args["plan"]
	if shown == nil {
		shown = args["reason"]
	}
	if q.Confirm == nil || q.Confirm.Type != tools.ConfirmInfo || q.Confirm.Prompt != shown {
		t.Errorf("card = %+v, want the text %q", q.Confirm, shown)
	}
}

// TestPlanUntrusted: in an untrusted workspace the plan card does not
// offer to accept edits automatically.
func TestPlanUntrustedOptions(t *testing.T) {
	s, _ := newTestSession(t, &agenttest.Model{}, func(o *Options) { o.Mode = ModePlan })
	s.SetTrusted(context.Background(), false, "")
	var ids []string
	for _, o := range s.eng.planOptions(false) {
		ids = append(ids, o.ID)
	}
	if want := []string{PlanAskEdits, PlanKeep}; !slices.Equal(ids, want) {
		t.Errorf("options = %q, want %q", ids, want)
	}
}
