package agent

import (
	"slices"
	"testing"
)

func TestAtWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"explain @src/main.go please", []string{"src/main.go"}},
		{"@a.txt and @b\\ c.txt", []string{"a.txt", "b c.txt"}},
		{"mail me at x@y.com", nil},
		{"a lone @ sign", nil},
		{"two\n@lines.md", []string{"lines.md"}},
	}
	for _, tt := range tests {
		if got := atWords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("atWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
