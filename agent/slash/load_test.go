package slash

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes files (slash-separated paths relative to root).
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		path := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		project, user map[string]string
		// want maps command names to "description|hint|path suffix|prompt".
		want    map[string]string
		wantErr map[string]error // file base name -> sentinel
	}{
		{
			name: "namespaced by folder",
			project: map[string]string{
				".companion/commands/git/commit.toml": "description = \"Commit\"\nprompt = \"Write a commit message for {{args}}\"",
				".companion/commands/review.toml":     `prompt = "Review the diff"`,
				".companion/commands/a/b/c.toml":      "prompt = '''\nDeep !{ls}\n'''",
				".companion/commands/README.md":       "not a command",
			},
			want: map[string]string{
				"git:commit": "Commit|args|git/commit.toml|Write a commit message for {{args}}",
				"review":     "Custom command from review.toml||review.toml|Review the diff",
				"a:b:c":      "Custom command from a/b/c.toml||a/b/c.toml|Deep !{ls}\n",
			},
		},
		{
			name: "project wins on clash",
			project: map[string]string{
				".companion/commands/review.toml": "description = \"project\"\nprompt = \"p\"",
			},
			user: map[string]string{
				"commands/review.toml":       "description = \"user\"\nprompt = \"u\"",
				"commands/ops/deploy.toml":   "description = \"deploy\"\nprompt = \"d {{args}}\"",
				".companion/commands/x.toml": `prompt = "not read: the user dir has no .companion"`,
			},
			want: map[string]string{
				"review":     "project||.companion/commands/review.toml|p",
				"ops:deploy": "deploy|args|commands/ops/deploy.toml|d {{args}}",
			},
		},
		{
			name: "bad files reported, good ones kept",
			project: map[string]string{
				".companion/commands/bad.toml":       `prompt = "unterminated`,
				".companion/commands/wrongtype.toml": `prompt = 3`,
				".companion/commands/empty.toml":     `description = "no prompt"`,
				".companion/commands/blank.toml":     `prompt = "   "`,
				".companion/commands/my cmd.toml":    `prompt = "x"`,
				".companion/commands/a:b.toml":       `prompt = "x"`,
				".companion/commands/unclosed.toml":  "prompt = \"ok\\n!{ls\"",
				".companion/commands/good.toml":      `prompt = "fine"`,
			},
			want: map[string]string{"good": "Custom command from good.toml||good.toml|fine"},
			wantErr: map[string]error{
				"bad.toml": ErrBadTOML, "wrongtype.toml": ErrBadTOML, "empty.toml": ErrNoPrompt,
				"blank.toml": ErrNoPrompt, "my cmd.toml": ErrBadName, "a:b.toml": ErrBadName,
				"unclosed.toml": ErrUnclosed,
			},
		},
		{name: "no folders", want: map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			project, user := t.TempDir(), t.TempDir()
			writeFiles(t, project, tt.project)
			writeFiles(t, user, tt.user)
			cmds, errs := Load(project, user)
			checkCommands(t, cmds, tt.want)
			checkLoadErrors(t, errs, tt.wantErr)
		})
	}
}

// checkCommands compares loaded commands with their "description|hint|
// path suffix|prompt" summaries and checks they are sorted.
func checkCommands(t *testing.T, cmds []Command, want map[string]string) {
	t.Helper()
	if len(cmds) != len(want) {
		t.Errorf("loaded %d commands %v, want %d", len(cmds), cmds, len(want))
	}
	for i, c := range cmds {
		if i > 0 && cmds[i-1].Name >= c.Name {
			t.Errorf("commands not sorted: %q before %q", cmds[i-1].Name, c.Name)
		}
		w, ok := want[c.Name]
		if !ok {
			t.Errorf("unexpected command %q", c.Name)
			continue
		}
		parts := strings.SplitN(w, "|", 4)
		if c.Description != parts[0] || c.Hint != parts[1] || c.Prompt != parts[3] ||
			!strings.HasSuffix(filepath.ToSlash(c.Path), "/"+parts[2]) {
			t.Errorf("command %q = %+v, want %q", c.Name, c, w)
		}
	}
}

// checkLoadErrors matches each error to the file it names.
func checkLoadErrors(t *testing.T, errs []error, want map[string]error) {
	t.Helper()
	if len(errs) != len(want) {
		t.Errorf("errors = %v, want %d", errs, len(want))
	}
	for _, err := range errs {
		found := false
		for base, sentinel := range want {
			if strings.Contains(err.Error(), string(filepath.Separator)+base+":") {
				found = true
				if !errors.Is(err, sentinel) {
					t.Errorf("error %v does not wrap %v", err, sentinel)
				}
			}
		}
		if !found {
			t.Errorf("unexpected error %v", err)
		}
	}
}

func TestLoadEmptyDirs(t *testing.T) {
	t.Parallel()
	cmds, errs := Load("", "")
	if len(cmds) != 0 || len(errs) != 0 {
		t.Errorf("Load with no folders = %v, %v", cmds, errs)
	}
}
