package main

import (
	"slices"
	"testing"
)

func TestAllowedToolRules(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"read_file"}, []string{"read_file"}},
		{[]string{"read_file, glob"}, []string{"read_file", "glob"}},
		{[]string{"run_shell_command(git log, git status),edit"}, []string{"run_shell_command(git log, git status)", "edit"}},
		{[]string{"a", "b,c", " , "}, []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		f := runFlags{allowedTools: tt.in}
		if got := f.rules(); !slices.Equal(got, tt.want) {
			t.Errorf("rules(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
