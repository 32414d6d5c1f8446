package hooks

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunnerWrapAndEnabled: Wrap rewrites each hook's command line (here
// it adds a variable the hook writes out), a Wrap error fails the hook
// unrun, and a hook whose Enabled says no is skipped.
func TestRunnerWrapAndEnabled(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	hook := Hook{Command: "cat > /dev/null; echo \"wrapped=$WRAPPED\" >> " + out}
	tests := []struct {
		name    string
		wrap    func([]string) ([]string, error)
		enabled func() bool
		want    string
		wantErr error
	}{
		{"wrapped", func(argv []string) ([]string, error) { return append([]string{"env", "WRAPPED=yes"}, argv...), nil }, nil, "wrapped=yes\n", nil},
		{"wrap fails", func([]string) ([]string, error) { return nil, errors.New("no sandbox") }, nil, "", ErrStart},
		{"held back", nil, func() bool { return false }, "", nil},
		{"enabled", nil, func() bool { return true }, "wrapped=\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_ = os.Remove(out)
			h := hook
			h.Enabled = tt.enabled
			r := NewRunner(Config{Hooks: map[string][]Hook{BeforeAgent: {h}}}, Options{Wrap: tt.wrap})
			o, err := r.Run(context.Background(), BeforeAgent, Input{Cwd: dir})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(out)
			if string(got) != tt.want {
				t.Errorf("hook wrote %q, want %q", got, tt.want)
			}
			if tt.wantErr != nil && (len(o.Errors) != 1 || !errors.Is(o.Errors[0], tt.wantErr) || !strings.Contains(o.Errors[0].Error(), "no sandbox")) {
				t.Errorf("errors = %v, want one wrapping %v", o.Errors, tt.wantErr)
			}
		})
	}
}

// TestConfigGated: Gated sets Enabled on every hook and leaves c as it was.
func TestConfigGated(t *testing.T) {
	c := Config{Hooks: map[string][]Hook{BeforeAgent: {{Command: "a"}}, AfterAgent: {{Command: "b"}}}}
	g := c.Gated(func() bool { return false })
	for ev, hs := range g.Hooks {
		if len(hs) != 1 || hs[0].Enabled == nil || hs[0].Enabled() {
			t.Errorf("%s: %+v, want the gate set", ev, hs)
		}
		if c.Hooks[ev][0].Enabled != nil {
			t.Errorf("%s: Gated changed the original", ev)
		}
	}
}
