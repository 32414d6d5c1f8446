package config

import (
	"slices"
	"strings"
	"testing"
)

// TestDecodeForeign: what companion takes from a Gemini CLI and a Claude
// Code settings file, the line each rule is on, and the keys it leaves.
func TestDecodeForeign(t *testing.T) {
	t.Parallel()
	gem := []byte(`{
  // Gemini CLI allows comments
  "general": {"defaultApprovalMode": "auto_edit", "vimMode": true},
  "tools": {"exclude": ["run_shell_command(rm)"], "core": ["read_file"], "sandbox": true},
  "ui": {"theme": "x"}
}`)
	g, err := decodeGemini("/h/.gemini/settings.json", gem, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g.Mode != "auto_edit" || !slices.Equal(g.Permissions.Deny, []string{"run_shell_command(rm)"}) ||
		!slices.Equal(g.Permissions.Only, []string{"read_file"}) {
		t.Errorf("gemini = %+v", g)
	}
	if got := g.Permissions.Origins["run_shell_command(rm)"]; got != "/h/.gemini/settings.json:4" {
		t.Errorf("origin = %q", got)
	}
	if !slices.Equal(g.Unread, []string{"general.vimMode", "tools.sandbox", "ui"}) {
		t.Errorf("unread = %q", g.Unread)
	}
	cl := []byte(`{"permissions": {"allow": ["Bash(git status)"], "deny": ["Read(./.env)"], "defaultMode": "acceptEdits",
  "additionalDirectories": ["../x"]}, "env": {"A": "1"}, "hooks": {"Stop": []}}`)
	c, err := decodeClaude("/p/.claude/settings.json", cl, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != "auto_edit" || len(c.Permissions.Allow) != 1 || len(c.Permissions.Deny) != 1 || string(c.Hooks) != `{"Stop": []}` {
		t.Errorf("claude = %+v", c)
	}
	if !slices.Equal(c.Unread, []string{"env", "permissions.additionalDirectories"}) {
		t.Errorf("unread = %q", c.Unread)
	}
	if _, err := decodeClaude("/p/.claude/settings.json", []byte(`{"permissions": {"defaultMode": "wild"}}`), nil); err == nil ||
		!strings.Contains(err.Error(), "acceptEdits") {
		t.Errorf("a bad mode: %v", err)
	}
}
