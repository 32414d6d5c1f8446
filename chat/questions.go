package chat

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"companion/tools"
)

// questions puts ask_user's questions to the person at the terminal, one
// at a time: the options numbered, then the answer line. A number (or,
// for multiple choice, numbers separated by commas or spaces) picks
// options; anything else is the person's own answer; an empty line
// declines every question; Ctrl-C or end of input cancels the turn.
type questions struct {
	a *asker
}

// Ask asks each question in turn.
func (q questions) Ask(ctx context.Context, qs []tools.Question) ([]tools.QuestionAnswer, error) {
	if !q.a.dropTypedAhead() {
		return nil, tools.ErrTurnCancelled
	}
	out := make([]tools.QuestionAnswer, len(qs))
	for i, question := range qs {
		q.a.out.notice(questionPrompt(i, len(qs), question))
		q.a.out.printf("answer (%s, or your own words; empty to skip): ", hint(question))
		line, err := q.line(ctx)
		if err != nil {
			return nil, err
		}
		ans, wantsText := readAnswer(line, question)
		if wantsText {
			q.a.out.printf("your answer: ")
			if line, err = q.line(ctx); err != nil {
				return nil, err
			}
			ans.Other = strings.TrimSpace(line)
		}
		out[i] = ans
	}
	return out, nil
}

// line reads one answer line: an empty one declines, Ctrl-C or end of
// input cancels the turn.
func (q questions) line(ctx context.Context) (string, error) {
	select {
	case <-ctx.Done():
		return "", tools.ErrTurnCancelled
	case line, ok := <-q.a.lines:
		q.a.out.typed()
		switch {
		case !ok:
			return "", tools.ErrTurnCancelled
		case strings.TrimSpace(line) == "":
			return "", tools.ErrDeclined
		}
		return line, nil
	}
}

// hint says how options are picked.
func hint(q tools.Question) string {
	if q.Multi {
		return "numbers such as 1,3"
	}
	return "a number"
}

// questionPrompt is question i of n with its numbered options.
func questionPrompt(i, n int, q tools.Question) string {
	var b strings.Builder
	if n > 1 {
		fmt.Fprintf(&b, "? (%d/%d) ", i+1, n)
	} else {
		b.WriteString("? ")
	}
	fmt.Fprintf(&b, "%s: %s", q.Header, q.Question)
	for j, o := range q.Options {
		fmt.Fprintf(&b, "\n  %d) %s", j+1, o.Label)
		if o.Description != "" {
			fmt.Fprintf(&b, " - %s", o.Description)
		}
	}
	fmt.Fprintf(&b, "\n  %d) Other (type your answer)", len(q.Options)+1)
	return b.String()
}

// readAnswer reads a line as option numbers when it is only numbers of
// options (one, unless the question is multiple choice), else as the
// person's own words. wantsText reports that "Other" was picked by its
// number, so the words are still to come.
func readAnswer(line string, q tools.Question) (ans tools.QuestionAnswer, wantsText bool) {
	own := tools.QuestionAnswer{Other: strings.TrimSpace(line)}
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if !q.Multi && len(fields) > 1 {
		return own, false
	}
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		switch {
		case err != nil || n < 1 || n > len(q.Options)+1:
			return own, false
		case n == len(q.Options)+1:
			wantsText = true
		default:
			ans.Selected = append(ans.Selected, q.Options[n-1].Label)
		}
	}
	return ans, wantsText
}
