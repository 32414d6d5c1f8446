//go:build unix

package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
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

// TestRunShellDropsRelativePath: a relative PATH entry ("" or "bin") is
// not searched for a command's programs, so a repository's bin/ls or ./ls
// does not run in place of ls; absolute entries stay.
func TestRunShellDropsRelativePath(t *testing.T) {
	env := shellEnv(t)
	root := env.Roots.Primary()
	for _, dir := range []string{root, filepath.Join(root, "bin")} {
		testio.WriteFile(t, filepath.Join(dir, "ls"), []byte("#!/bin/sh\ntouch \""+filepath.Join(root, "PWNED")+"\"\n"))
		if err := os.Chmod(filepath.Join(dir, "ls"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", "bin::.:"+os.Getenv("PATH"))
	res, _ := runShell(t, env, ShellOptions{}, map[string]any{"command": "ls; echo PATH=$PATH"})
	if _, err := os.Stat(filepath.Join(root, "PWNED")); err == nil {
		t.Fatalf("the workspace's ls ran through a relative PATH entry:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "PATH=/") || strings.Contains(res.Text, "PATH=bin") || strings.Contains(res.Text, "::") {
		t.Errorf("PATH keeps relative entries or lost the absolute ones:\n%s", res.Text)
	}
}
