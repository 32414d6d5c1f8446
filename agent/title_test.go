package agent

import (
	"testing"

	"companion/agent/model"
)

func TestTitleFrom(t *testing.T) {
	tests := []struct {
		parts []model.Part
		want  string
	}{
		{[]model.Part{{Text: "fix the read_file bug"}}, "fix the read_file bug"},
		{[]model.Part{{Text: "## Add **bold** `flag` support\nmore"}}, "Add bold flag support"},
		{[]model.Part{{Text: "- see [the docs](https://x.y/z) and __this__"}}, "see the docs and this"},
		{[]model.Part{{Text: "> [WIP] quoted"}}, "[WIP] quoted"},
		{[]model.Part{{Text: "  "}, {InlineData: &model.Blob{MIMEType: "image/png"}}}, "Image"},
		{[]model.Part{{Text: "```"}, {Text: "second part"}}, "second part"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := titleFrom(tt.parts); got != tt.want {
			t.Errorf("titleFrom(%+v) = %q, want %q", tt.parts, got, tt.want)
		}
	}
}
