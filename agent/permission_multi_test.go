package agent

import (
	"path/filepath"
	"testing"

	"companion/tools"
	"companion/tools/policy"
)

// TestDecideEachFile: a multi-file edit gets the strictest verdict of
// its files, so a rule about one file is not bypassed by putting it
// second.
func TestDecideEachFile(t *testing.T) {
	rule := func(s string) policy.Rule {
		r, err := policy.ParseRule(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	tests := []struct {
		name  string
		rules policy.Rules
		mode  string
		want  policy.Decision
	}{
		{"auto_edit allows both", policy.Rules{}, ModeAutoEdit, policy.Allow},
		{"a deny rule on the second file denies", policy.Rules{Deny: []policy.Rule{rule("edit(secret/**)")}}, ModeAutoEdit, policy.Deny},
		{"an allow rule on the first file only asks", policy.Rules{Allow: []policy.Rule{rule("edit(a.go)")}}, ModeDefault, policy.Ask},
		{"allow rules for both allow", policy.Rules{Allow: []policy.Rule{rule("edit(a.go)"), rule("edit(secret/b.go)")}}, ModeDefault, policy.Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newTestSession(t, &fakeModel{})
			s.policy = policy.New(policy.Options{Mode: tt.mode, Trusted: true, Roots: s.opts.Roots, Rules: tt.rules})
			root := s.Root()
			conf := &tools.Confirmation{Type: tools.ConfirmEdit, Path: filepath.Join(root, "a.go"), NewText: "x",
				More: []tools.Diff{{Path: filepath.Join(root, "secret", "b.go"), NewText: "y"}}}
			v := s.decideEach(policy.Call{Tool: "lsp_rename", Kind: tools.KindEdit, Confirm: conf, Root: root})
			if v.Decision != tt.want {
				t.Errorf("decision = %v (%s), want %v", v.Decision, v.Reason, tt.want)
			}
		})
	}
}
