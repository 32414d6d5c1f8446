package tools

import (
	"context"
	"errors"
)

// Questioner puts the model's multiple-choice questions to the user
// (ask_user): the editor's form, the chat's numbered prompt. Ask returns
// one answer per question, in order, or ErrDeclined when the user chose
// not to answer, or ErrTurnCancelled when the user cancelled.
type Questioner interface {
	Ask(ctx context.Context, qs []Question) ([]QuestionAnswer, error)
}

// Question is one multiple-choice question. The user may always answer
// in their own words instead of picking options ("Other").
type Question struct {
	// Header is a short label (a few words) for the question.
	Header string `json:"header"`
	// Question is the full question.
	Question string `json:"question"`
	// Options are the choices, two to four.
	Options []QuestionOption `json:"options"`
	// Multi lets the user pick several options.
	Multi bool `json:"multiSelect,omitempty"`
}

// QuestionOption is one choice.
type QuestionOption struct {
	Label       string `json:"label"`
	Description string `json:"description,omitempty"`
}

// QuestionAnswer is the user's answer to one question: the labels picked,
// and their own words when they chose "Other".
type QuestionAnswer struct {
	Selected []string `json:"selected,omitempty"`
	Other    string   `json:"other,omitempty"`
}

// Errors a Questioner returns.
var (
	// ErrDeclined: the user chose not to answer.
	ErrDeclined = errors.New("the user declined to answer")
	// ErrTurnCancelled: the user cancelled; the turn ends, as when they
	// cancel it from the editor.
	ErrTurnCancelled = errors.New("the user cancelled the turn")
)
