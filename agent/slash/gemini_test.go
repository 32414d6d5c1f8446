package slash

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGeminiCommandFolders reads the fixture trees: Gemini CLI's user and
// project .gemini/commands beside companion's folders, each later folder
// winning on a name.
func TestGeminiCommandFolders(t *testing.T) {
	base := filepath.Join("testdata", "imports")
	home, user, project := filepath.Join(base, "home"), filepath.Join(base, "user"), filepath.Join(base, "project")
	tests := []struct {
		name    string
		project string
		want    map[string]string // name → description
	}{
		{"untrusted: user folders only", "", map[string]string{"hello": "companion user dir wins over ~/.gemini"}},
		{"trusted", project, map[string]string{
			"hello":   "companion user dir wins over ~/.gemini",
			"git:log": "Custom command from git/log.toml",
			"x":       "companion project x",
			"y":       "Custom command from y.toml",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmds, errs := LoadFolders(Folders(tt.project, user, home))
			if len(errs) != 0 {
				t.Fatal(errs)
			}
			if len(cmds) != len(tt.want) {
				t.Fatalf("got %+v", cmds)
			}
			for _, c := range cmds {
				if d, ok := tt.want[c.Name]; !ok || c.Description != d {
					t.Errorf("%s: %q, want %q", c.Name, c.Description, d)
				}
			}
		})
	}
	cmds, _ := LoadFolders(Folders("", "", home))
	if len(cmds) != 1 || cmds[0].Hint != "args" || !strings.Contains(cmds[0].Path, ".gemini") {
		t.Errorf("~/.gemini/commands alone: %+v", cmds)
	}
}
