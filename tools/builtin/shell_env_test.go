//go:build unix

package builtin

import (
	"strings"
	"testing"

	"companion/secrets"
)

// TestRunShellEnvironment checks that local commands run without the
// variables that look like credentials, and that the filter's settings
// apply.
func TestRunShellEnvironment(t *testing.T) {
	t.Setenv("GEMINI_API_KEY", "MARKED-GEMINI-1")
	t.Setenv("SOME_TOKEN", "MARKED-TOKEN-2")
	t.Setenv("KEEP_ME", "kept-3")
	env := shellEnv(t)
	tests := []struct {
		name       string
		filter     secrets.EnvFilter
		want, gone []string
	}{
		{"defaults", secrets.EnvFilter{}, []string{"KEEP_ME=kept-3", "COMPANION=1"}, []string{"MARKED-GEMINI-1", "MARKED-TOKEN-2"}},
		{"include", secrets.EnvFilter{Include: []string{"SOME_TOKEN"}}, []string{"SOME_TOKEN=MARKED-TOKEN-2"}, []string{"MARKED-GEMINI-1"}},
		{"exclude", secrets.EnvFilter{Exclude: []string{"KEEP_*"}}, nil, []string{"kept-3", "MARKED-GEMINI-1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := runShell(t, env, ShellOptions{Env: tt.filter}, map[string]any{"command": "env"})
			for _, w := range tt.want {
				if !strings.Contains(res.Text, w) {
					t.Errorf("env lacks %s:\n%s", w, res.Text)
				}
			}
			for _, g := range tt.gone {
				if strings.Contains(res.Text, g) {
					t.Errorf("env shows %s:\n%s", g, res.Text)
				}
			}
		})
	}
}
