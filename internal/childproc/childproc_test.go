package childproc

import (
	"slices"
	"strings"
	"testing"
)

func TestEnv(t *testing.T) {
	cases := []struct {
		name  string
		base  []string
		extra map[string]string
		want  []string
	}{
		{"nothing added", []string{"A=1"}, nil, []string{"A=1"}},
		{"replaced and added in name order", []string{"A=1", "B=2"}, map[string]string{"C": "4", "B": "3"}, []string{"A=1", "B=3", "C=4"}},
		{"empty value kept", []string{"A=1"}, map[string]string{"A": ""}, []string{"A="}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Env(c.base, c.extra); !slices.Equal(got, c.want) {
				t.Errorf("Env = %q, want %q", got, c.want)
			}
		})
	}
}

func TestTail(t *testing.T) {
	cases := []struct {
		name   string
		max    int
		writes []string
		n      int
		want   string
	}{
		{"nothing written", 64, nil, 3, ""},
		{"last lines, blanks skipped", 64, []string{"one\n\n  two  \n", "three\n"}, 2, "two | three"},
		{"oldest bytes dropped", 9, []string{"first line\n", "second\n"}, 5, "e | second"},
		{"a line split across writes", 64, []string{"hal", "f a line\n"}, 1, "half a line"},
		{"a big write keeps its end", 4, []string{strings.Repeat("x", 100) + "END\n"}, 1, "END"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tl := &Tail{Max: c.max}
			for _, w := range c.writes {
				if n, err := tl.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if got := tl.Lines(c.n); got != c.want {
				t.Errorf("Lines(%d) = %q, want %q", c.n, got, c.want)
			}
		})
	}
}
