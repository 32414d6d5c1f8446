package builtin

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"companion/tools"
)

//go:embed descriptions/ask_user.md
var askUserDescription string

// Limits of one ask_user call.
const (
	maxQuestions = 4
	minOptions   = 2
	maxOptions   = 4
)

// noOneToAsk is the result when no one can answer.
const noOneToAsk = "No one can answer questions here (a headless run, or an editor that cannot show a form). Go on with the most reasonable choice for each question and state the assumption you made."

// askUserParams are ask_user's parameters.
type askUserParams struct {
	Questions []tools.Question `json:"questions"`
}

func newAskUser() tools.Tool {
	return tools.Define(tools.Def[askUserParams]{
		Name: "ask_user", Kind: tools.KindOther, Description: askUserDescription,
		Schema: askUserSchema(),
		Bind: func(args json.RawMessage) (askUserParams, error) {
			var p askUserParams
			if err := json.Unmarshal(args, &p); err != nil {
				return p, tools.ArgErrorf("questions must be a list of {header, question, options: [{label, description}], multiSelect}: %v", err)
			}
			return p, nil
		},
		Prepare: func(env *tools.Env, p askUserParams) (tools.Invocation, error) {
			if err := checkQuestions(p.Questions); err != nil {
				return nil, err
			}
			return &askUserCall{env: env, qs: p.Questions}, nil
		},
	})
}

// askUserSchema is written out by hand: an array of objects with an array
// of objects inside is beyond what SchemaFor describes.
func askUserSchema() json.RawMessage {
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	option := map[string]any{"type": "object", "required": []string{"label"}, "properties": map[string]any{
		"label":       str("The choice, in a few words."),
		"description": str("What choosing it means, in one line."),
	}}
	question := map[string]any{"type": "object", "required": []string{"header", "question", "options"}, "properties": map[string]any{
		"header":      str("A short label for the question, a few words."),
		"question":    str("The full question."),
		"options":     map[string]any{"type": "array", "minItems": minOptions, "maxItems": maxOptions, "items": option},
		"multiSelect": map[string]any{"type": "boolean", "description": "Let the user pick several options."},
	}}
	s := map[string]any{"type": "object", "required": []string{"questions"}, "properties": map[string]any{
		"questions": map[string]any{"type": "array", "minItems": 1, "maxItems": maxQuestions, "items": question},
	}}
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

// checkQuestions enforces the limits the schema states.
func checkQuestions(qs []tools.Question) error {
	if len(qs) == 0 || len(qs) > maxQuestions {
		return tools.ArgErrorf("ask between 1 and %d questions, not %d", maxQuestions, len(qs))
	}
	for i, q := range qs {
		if strings.TrimSpace(q.Header) == "" || strings.TrimSpace(q.Question) == "" {
			return tools.ArgErrorf("question %d needs a header and a question", i+1)
		}
		if len(q.Options) < minOptions || len(q.Options) > maxOptions {
			return tools.ArgErrorf("question %d needs %d to %d options, not %d", i+1, minOptions, maxOptions, len(q.Options))
		}
		seen := map[string]bool{}
		for _, o := range q.Options {
			l := strings.TrimSpace(o.Label)
			if l == "" || seen[l] || strings.EqualFold(l, "other") {
				return tools.ArgErrorf("question %d: option labels must be set, distinct and not \"Other\" (the user can always answer in their own words)", i+1)
			}
			seen[l] = true
		}
	}
	return nil
}

// askUserCall is one ask_user call.
type askUserCall struct {
	env *tools.Env
	qs  []tools.Question
}

func (c *askUserCall) Title() string {
	if len(c.qs) == 1 {
		return "Ask: " + c.qs[0].Question
	}
	return fmt.Sprintf("Ask %d questions", len(c.qs))
}

func (c *askUserCall) Locations() []tools.Location { return nil }

// Confirmation is nil: asking is itself the user's say.
func (c *askUserCall) Confirmation(context.Context) (*tools.Confirmation, error) { return nil, nil }

// Execute asks and reports the answers. A cancelled question cancels the
// turn (a Go error the agent treats so).
func (c *askUserCall) Execute(ctx context.Context, _ tools.Output) (*tools.Result, error) {
	if c.env == nil || c.env.Questions == nil {
		return &tools.Result{Text: noOneToAsk}, nil
	}
	answers, err := c.env.Questions.Ask(ctx, c.qs)
	switch {
	case errors.Is(err, tools.ErrTurnCancelled):
		return nil, err
	case errors.Is(err, tools.ErrDeclined):
		return &tools.Result{Text: "The user declined to answer. Do not ask again; go on with the most reasonable choice and state the assumption, or stop and say what you need."}, nil
	case err != nil:
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return &tools.Result{Text: "The question could not be shown (" + err.Error() + "). " + noOneToAsk}, nil
	}
	return &tools.Result{Text: answerText(c.qs, answers), Raw: map[string]any{"answers": answers}}, nil
}

// answerText lists each question with the user's answer.
func answerText(qs []tools.Question, as []tools.QuestionAnswer) string {
	var b strings.Builder
	b.WriteString("The user answered:")
	for i, q := range qs {
		var a tools.QuestionAnswer
		if i < len(as) {
			a = as[i]
		}
		parts := append([]string(nil), a.Selected...)
		if o := strings.TrimSpace(a.Other); o != "" {
			parts = append(parts, "in their own words: "+o)
		}
		ans := strings.Join(parts, "; ")
		if ans == "" {
			ans = "(no answer)"
		}
		fmt.Fprintf(&b, "\n%d. %s: %s", i+1, q.Header, ans)
	}
	return b.String()
}
