package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"companion/rpc"
	"companion/tools"
)

// otherLabel is the choice every question offers beside the model's.
const otherLabel = "Other"

// questioner puts ask_user's questions to the user as one elicitation/create
// form: a single- or multi-select field per question, each offering
// "Other", and a text field per question for the user's own words. It is
// nil when the client renders no forms.
func questioner(conn *rpc.Conn, id SessionID, caps ClientCapabilities) tools.Questioner {
	if caps.Elicitation == nil || caps.Elicitation.Form == nil {
		return nil
	}
	return formQuestions{conn: conn, id: id}
}

// formQuestions is a questioner over the client's forms.
type formQuestions struct {
	conn *rpc.Conn
	id   SessionID
}

// Ask shows the form and reads the answers. Declining is ErrDeclined;
// cancelling ends the turn.
func (f formQuestions) Ask(ctx context.Context, qs []tools.Question) ([]tools.QuestionAnswer, error) {
	req := &CreateElicitationRequest{Message: questionsMessage(qs),
		Form: &ElicitationFormMode{RequestedSchema: questionSchema(qs), Session: &ElicitationSessionScope{SessionID: f.id}}}
	resp, err := clientMethods{conn: f.conn}.ElicitationCreate(ctx, req)
	switch {
	case err != nil:
		return nil, err
	case resp.Accept != nil:
		return questionAnswers(qs, resp.Accept.Content), nil
	case resp.Decline != nil:
		return nil, tools.ErrDeclined
	}
	return nil, tools.ErrTurnCancelled
}

// questionsMessage is the form's message: the questions in full.
func questionsMessage(qs []tools.Question) string {
	if len(qs) == 1 {
		return "companion asks: " + qs[0].Question
	}
	var b strings.Builder
	b.WriteString("companion asks:")
	for i, q := range qs {
		fmt.Fprintf(&b, "\n%d. %s", i+1, q.Question)
	}
	return b.String()
}

// questionSchema is one choice field per question ("q1", "q2", …) and
// one text field for the user's own words ("q1_other", …).
func questionSchema(qs []tools.Question) ElicitationSchema {
	s := ElicitationSchema{Type: "object", Properties: map[string]ElicitationPropertySchema{}}
	for i, q := range qs {
		opts := make([]EnumOption, 0, len(q.Options)+1)
		for _, o := range q.Options {
			opts = append(opts, EnumOption{Const: o.Label, Title: o.Label, Description: o.Description})
		}
		opts = append(opts, EnumOption{Const: otherLabel, Title: otherLabel, Description: "Answer in your own words below."})
		key := fmt.Sprintf("q%d", i+1)
		if q.Multi {
			s.Properties[key] = ElicitationPropertySchema{Array: &MultiSelectPropertySchema{Title: q.Header, Description: q.Question,
				Items: MultiSelectItems{Titled: &TitledMultiSelectItems{AnyOf: opts}}}}
		} else {
			s.Properties[key] = ElicitationPropertySchema{String: &StringPropertySchema{Title: q.Header, Description: q.Question, OneOf: opts}}
		}
		s.Properties[key+"_other"] = ElicitationPropertySchema{String: &StringPropertySchema{Title: q.Header + ": other",
			Description: "Your own answer, if none of the choices fits."}}
		s.Required = append(s.Required, key)
	}
	return s
}

// questionAnswers reads the accepted form back, question by question.
func questionAnswers(qs []tools.Question, content map[string]ElicitationContentValue) []tools.QuestionAnswer {
	out := make([]tools.QuestionAnswer, len(qs))
	for i := range qs {
		key := fmt.Sprintf("q%d", i+1)
		var picked []string
		if v, ok := content[key]; ok {
			var one string
			if json.Unmarshal(v.Raw(), &one) == nil {
				picked = []string{one}
			} else {
				_ = json.Unmarshal(v.Raw(), &picked)
			}
		}
		for _, p := range picked {
			if p != "" && p != otherLabel {
				out[i].Selected = append(out[i].Selected, p)
			}
		}
		if v, ok := content[key+"_other"]; ok {
			_ = json.Unmarshal(v.Raw(), &out[i].Other)
		}
	}
	return out
}
