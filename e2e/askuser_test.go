package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// askCall is the model asking two questions, the second multiple choice.
const askCall = `{"functionCall":{"name":"ask_user","args":{"questions":[
	{"header":"Storage","question":"Where should sessions be stored?","options":[
		{"label":"SQLite","description":"One file, queries"},{"label":"JSONL","description":"Append-only files"}]},
	{"header":"Extras","question":"Which extras do you want?","multiSelect":true,"options":[
		{"label":"Export"},{"label":"Search"},{"label":"Sync"}]}]}}}`

// TestAskUserOverACP: ask_user becomes one elicitation/create form; what
// the client answers reaches the model, a decline tells the model to go
// on, a cancel ends the turn, and a client without forms gets the model
// told no one can answer.
func TestAskUserOverACP(t *testing.T) {
	t.Parallel()
	form := map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}
	tests := []struct {
		name   string
		caps   map[string]any
		answer func(json.RawMessage) any
		match  string // what the model must read next
		stop   string
	}{
		{"answered", form, func(json.RawMessage) any {
			return map[string]any{"action": "accept", "content": map[string]any{"q1": "Other", "q1_other": "Postgres, we run it already",
				"q2": []string{"Export", "Sync"}}}
		}, "1. Storage: in their own words: Postgres, we run it already\n2. Extras: Export; Sync", "end_turn"},
		{"declined", form, nil, "The user declined to answer", "end_turn"},
		{"cancelled", form, func(json.RawMessage) any { return map[string]any{"action": "cancel"} }, "", "cancelled"},
		{"no forms", map[string]any{}, nil, "No one can answer questions here", "end_turn"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			turns := `{"chunks":[` + askCall + `]}`
			if tt.match != "" {
				turns += fmt.Sprintf(`,{"match":%q,"chunks":[{"text":"Thanks."}]}`, jsonInner(tt.match))
			}
			fake := acptest.NewFake()
			fake.Elicit = tt.answer
			ed := startAgent(t, agentOpts{script: `{"turns":[` + turns + `],"fallback":"error"}`, handler: fake.Handle})
			ed.Initialize(tt.caps)
			id := ed.NewSession(workspace(t, nil))
			if got := ed.StopReason(ed.Wait(ed.Prompt(id, "build session storage"))); got != tt.stop {
				t.Fatalf("stopReason = %q, want %q; stderr %s", got, tt.stop, ed.Stderr())
			}
			wantForms := 1
			if tt.caps["elicitation"] == nil {
				wantForms = 0
			}
			if len(fake.Elicitations) != wantForms {
				t.Fatalf("%d forms shown, want %d", len(fake.Elicitations), wantForms)
			}
			if wantForms == 1 {
				f := string(fake.Elicitations[0])
				for _, want := range []string{`"sessionId":"` + id + `"`, `"Where should sessions be stored?"`, `"const":"Other"`, `"anyOf"`, `"q2_other"`} {
					if !strings.Contains(f, want) {
						t.Errorf("the form lacks %s:\n%s", want, f)
					}
				}
			}
		})
	}
}

// jsonInner is s as it appears inside a JSON string (the scripted
// model's match is against the raw request body).
func jsonInner(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestAskUserHeadless: in `companion -p` no one can answer, so the model is
// told to go on on stated assumptions, and the run ends normally.
func TestAskUserHeadless(t *testing.T) {
	t.Parallel()
	sc := script(t, `{"turns":[{"chunks":[`+askCall+`]},
		{"match":"No one can answer questions here","chunks":[{"text":"Assuming SQLite."}]}],"fallback":"error"}`)
	o := runCompanion(t, runOpts{args: []string{"-p", "plan storage", "--script", sc}})
	if o.Code != 0 || !strings.Contains(o.Stdout, "Assuming SQLite.") {
		t.Errorf("want exit 0 and the model going on; got\n%s", o)
	}
}
