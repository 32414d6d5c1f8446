package agent

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"companion/agent/model"
	"companion/internal/testkit/agenttest"
	"companion/tools"
	"companion/tools/policy"
)

// editTool pretends to edit a file; it records whether it ran and with
// which text.
type editTool struct {
	mu    sync.Mutex
	wrote []string
}

func (*editTool) Name() string            { return "fake_edit" }
func (*editTool) Description() string     { return "Edit a file." }
func (*editTool) Kind() tools.Kind        { return tools.KindEdit }
func (*editTool) Schema() json.RawMessage { return json.RawMessage(`{"type":"object"}`) }
func (e *editTool) Prepare(env *tools.Env, args json.RawMessage) (tools.Invocation, error) {
	var p struct{ Path, Text string }
	json.Unmarshal(args, &p)
	return &editCall{t: e, path: filepath.Join(env.Roots.Primary(), p.Path), text: p.Text}, nil
}

type editCall struct {
	t          *editTool
	path, text string
}

func (c *editCall) Title() string               { return "Edit " + c.path }
func (c *editCall) Locations() []tools.Location { return []tools.Location{{Path: c.path}} }
func (c *editCall) UseModifiedContent(t string) { c.text = t }
func (c *editCall) Confirmation(context.Context) (*tools.Confirmation, error) {
	return &tools.Confirmation{Type: tools.ConfirmEdit, Path: c.path, NewText: c.text}, nil
}
func (c *editCall) Execute(context.Context, tools.Output) (*tools.Result, error) {
	c.t.mu.Lock()
	defer c.t.mu.Unlock()
	c.t.wrote = append(c.t.wrote, c.text)
	return &tools.Result{Text: "wrote " + c.text}, nil
}

// fakeAsker answers with a fixed answer, or blocks until cancelled.
type fakeAsker struct {
	mu     sync.Mutex
	asked  []Question
	answer Answer
	block  bool
}

func (a *fakeAsker) Ask(ctx context.Context, q Question) (Answer, error) {
	a.mu.Lock()
	a.asked = append(a.asked, q)
	a.mu.Unlock()
	if a.block {
		<-ctx.Done()
		return Answer{Cancelled: true}, nil
	}
	return a.answer, nil
}

func (a *fakeAsker) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.asked)
}

func editTurn(text string) agenttest.Turn {
	return agenttest.Turn{Chunks: []*model.Chunk{agenttest.Call("fake_edit", map[string]any{"Path": "a.txt", "Text": text})}}
}

func TestPermissionFlows(t *testing.T) {
	modified := "user's text"
	tests := []struct {
		name      string
		answer    Answer
		wantWrote []string
		wantAsked int // over two edits
		errPart   string
	}{
		{"allow once", Answer{OptionID: ProceedOnce}, []string{"one", "two"}, 2, ""},
		{"allow always", Answer{OptionID: ProceedAlways}, []string{"one", "two"}, 1, ""},
		{"allow all edits", Answer{OptionID: ProceedAlwaysTool}, []string{"one", "two"}, 1, ""},
		{"reject", Answer{OptionID: RejectOnceID}, nil, 2, "rejected"},
		{"reject always", Answer{OptionID: RejectAlwaysOption}, nil, 1, "rejected"},
		{"cancelled answer", Answer{Cancelled: true}, nil, 2, "cancelled"},
		{"modified content", Answer{OptionID: ProceedOnce, ModifiedContent: &modified}, []string{modified, modified}, 2, ""},
		{"bogus option", Answer{OptionID: "nope"}, nil, 2, "not one of the options"},
		{"updated input", Answer{OptionID: ProceedOnce, UpdatedInput: json.RawMessage(`{"Path":"a.txt","Text":"sdk"}`)}, []string{"sdk", "sdk"}, 2, ""},
		{"reject with a reason", Answer{OptionID: RejectOnceID, Message: "not on Fridays"}, nil, 2, "not on Fridays"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			et := &editTool{}
			ask := &fakeAsker{answer: tt.answer}
			m := &agenttest.Model{Turns: []agenttest.Turn{editTurn("one"), editTurn("two")}}
			s, rec := newTestSession(t, m, func(o *Options) {
				o.Tools = tools.NewRegistry(et)
				o.Asker = ask
			})
			if r, err := s.Prompt(context.Background(), userText("edit")); err != nil || r != EndTurn {
				t.Fatalf("Prompt = %q, %v", r, err)
			}
			if got := strings.Join(et.wrote, ","); got != strings.Join(tt.wantWrote, ",") {
				t.Errorf("wrote %q, want %q", et.wrote, tt.wantWrote)
			}
			if ask.count() != tt.wantAsked {
				t.Errorf("asked %d times, want %d", ask.count(), tt.wantAsked)
			}
			resp := m.Requests()[1].Contents
			got, _ := json.Marshal(resp[len(resp)-1])
			if tt.errPart != "" && !strings.Contains(string(got), tt.errPart) {
				t.Errorf("function response %s lacks %q", got, tt.errPart)
			}
			if refused := refusedCalls(rec.All()); (len(tt.wantWrote) == 0) != (refused > 0) {
				t.Errorf("%d calls reported refused, want them refused only when nothing was written", refused)
			}
			if q := ask.asked[0]; q.Confirm == nil || len(q.Options) < 3 || q.CallID == "" {
				t.Errorf("question = %+v", q)
			}
			if tt.answer.OptionID == ProceedAlwaysTool {
				if s.Mode() != ModeAutoEdit || !hasEvent(rec.All(), ModeChanged{ID: ModeAutoEdit}) {
					t.Errorf("allow all edits: mode %q, no ModeChanged event", s.Mode())
				}
			}
		})
	}
}

func hasEvent(evs []Event, want Event) bool {
	for _, e := range evs {
		if e == want {
			return true
		}
	}
	return false
}

func TestCancelWhileAsking(t *testing.T) {
	et := &editTool{}
	ask := &fakeAsker{block: true}
	m := &agenttest.Model{Turns: []agenttest.Turn{editTurn("one")}}
	s, _ := newTestSession(t, m, func(o *Options) {
		o.Tools = tools.NewRegistry(et)
		o.Asker = ask
	})
	done := make(chan StopReason)
	go func() {
		r, _ := s.Prompt(context.Background(), userText("edit"))
		done <- r
	}()
	for ask.count() == 0 {
		select {
		case r := <-done:
			t.Fatalf("prompt ended (%q) before asking", r)
		default:
		}
		runtimeGosched()
	}
	s.Cancel()
	if r := <-done; r != Cancelled {
		t.Errorf("stop reason = %q", r)
	}
	if len(et.wrote) != 0 {
		t.Errorf("tool ran after cancel: %q", et.wrote)
	}
}

func TestPlanModeRefusesEdits(t *testing.T) {
	et := &editTool{}
	m := &agenttest.Model{Turns: []agenttest.Turn{editTurn("one")}}
	s, _ := newTestSession(t, m, func(o *Options) {
		o.Tools = tools.NewRegistry(et)
		o.Mode = ModePlan
		o.Asker = &fakeAsker{answer: Answer{OptionID: ProceedOnce}}
	})
	s.Prompt(context.Background(), userText("edit"))
	if len(et.wrote) != 0 {
		t.Fatalf("plan mode ran an edit")
	}
	resp, _ := json.Marshal(m.Requests()[1].Contents)
	if !strings.Contains(string(resp), "Plan mode is read-only") {
		t.Errorf("model was not told why: %s", resp)
	}
}

// refusedCalls counts the calls reported as refused.
func refusedCalls(evs []Event) int {
	n := 0
	for _, e := range evs {
		if u, ok := e.(ToolCallUpdated); ok && u.Refused {
			n++
		}
	}
	return n
}

// TestAskedEveryTimeOffersNoAlways checks that a call the policy asks
// about every time (here: a file that grants powers) is offered only
// once-answers, with the reason on the card, and that it is asked again.
func TestAskedEveryTimeOffersNoAlways(t *testing.T) {
	et := &editTool{}
	ask := &fakeAsker{answer: Answer{OptionID: ProceedOnce}}
	m := &agenttest.Model{Turns: []agenttest.Turn{
		{Chunks: []*model.Chunk{agenttest.Call("fake_edit", map[string]any{"Path": ".git/config", "Text": "x"})}},
		{Chunks: []*model.Chunk{agenttest.Call("fake_edit", map[string]any{"Path": ".git/config", "Text": "y"})}},
	}}
	s, _ := newTestSession(t, m, func(o *Options) {
		o.Tools = tools.NewRegistry(et)
		o.Asker = ask
	})
	if r, err := s.Prompt(context.Background(), userText("edit")); err != nil || r != EndTurn {
		t.Fatalf("Prompt = %q, %v", r, err)
	}
	if ask.count() != 2 {
		t.Fatalf("asked %d times, want 2", ask.count())
	}
	q := ask.asked[0]
	for _, o := range q.Options {
		if o.Kind == AllowAlways || o.Kind == RejectAlways {
			t.Errorf("option %+v offered for a call asked every time", o)
		}
	}
	if len(q.Options) != 2 || !strings.Contains(q.Title, "grants powers") {
		t.Errorf("question = %q with %d options", q.Title, len(q.Options))
	}
}

// TestDecideEachFile: a multi-file edit gets the strictest verdict of
// its files, so a rule about one file is not bypassed by putting it
// second.
func TestDecideEachFile(t *testing.T) {
	rule := func(s string) policy.Rule {
		r, err := policy.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		name  string
		rules policy.Rules
		mode  string
		want  policy.Decision
	}{
		{"auto_edit allows both", policy.Rules{}, ModeAutoEdit, policy.Allow},
		{"a deny rule on the second file denies", policy.Rules{Deny: []policy.Rule{rule("edit(secret/**)")}}, ModeAutoEdit, policy.Deny},
		{"an allow rule on the first file only asks", policy.Rules{Allow: []policy.Rule{rule("edit(a.go)")}}, ModeDefault, policy.Ask},
		{"allow rules for both allow", policy.Rules{Allow: []policy.Rule{rule("edit(a.go)"), rule("edit(secret/b.go)")}}, ModeDefault, policy.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSession(t, &agenttest.Model{})
			s.policy = policy.New(policy.Options{Mode: tt.mode, Trusted: true, Roots: s.opts.Roots, Rules: tt.rules})
			root := s.Root()
			conf := &tools.Confirmation{Type: tools.ConfirmEdit, Path: filepath.Join(root, "a.go"), NewText: "x",
				More: []tools.Diff{{Path: filepath.Join(root, "secret", "b.go"), NewText: "y"}}}
			v := s.eng.decideEach(policy.Call{Tool: "lsp_rename", Kind: tools.KindEdit, Confirm: conf, Root: root})
			if v.Decision != tt.want {
				t.Errorf("decision = %v (%s), want %v", v.Decision, v.Reason, tt.want)
			}
		})
	}
}
