package chat

import (
	"reflect"
	"testing"

	"companion/tools"
)

func TestReadAnswer(t *testing.T) {
	one := tools.Question{Header: "H", Question: "Q?", Options: []tools.QuestionOption{{Label: "A"}, {Label: "B"}}}
	multi := one
	multi.Multi = true
	tests := []struct {
		name      string
		q         tools.Question
		line      string
		want      tools.QuestionAnswer
		wantsText bool
	}{
		{"a number", one, " 2 ", tools.QuestionAnswer{Selected: []string{"B"}}, false},
		{"own words", one, "neither, use C", tools.QuestionAnswer{Other: "neither, use C"}, false},
		{"two numbers on a single choice are words", one, "1,2", tools.QuestionAnswer{Other: "1,2"}, false},
		{"out of range is words", one, "7", tools.QuestionAnswer{Other: "7"}, false},
		{"other by number", one, "3", tools.QuestionAnswer{}, true},
		{"several", multi, "1, 2", tools.QuestionAnswer{Selected: []string{"A", "B"}}, false},
		{"several and other", multi, "2 3", tools.QuestionAnswer{Selected: []string{"B"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, wantsText := readAnswer(tt.line, tt.q)
			if !reflect.DeepEqual(got, tt.want) || wantsText != tt.wantsText {
				t.Errorf("readAnswer(%q) = %+v, %v; want %+v, %v", tt.line, got, wantsText, tt.want, tt.wantsText)
			}
		})
	}
}
