package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

func TestListDirectory(t *testing.T) {
	root := newSandbox(t, "workspace.txtar")
	outside := testio.RealTempDir(t)
	for link, target := range map[string]string{"srclink": filepath.Join(root, "src"), "outlink": outside} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Skip(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, "emptydir"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := newEnv(t, root)
	tests := []struct {
		name, golden string
		opts         ReadOnlyOptions
		args         map[string]any
	}{
		{"root", "list_root.txt", ReadOnlyOptions{}, map[string]any{"dir_path": "."}},
		{"no ignore files", "list_root_all.txt", ReadOnlyOptions{},
			map[string]any{"dir_path": root, "respect_git_ignore": false}},
		{"ignore param", "list_root_ignore.txt", ReadOnlyOptions{},
			map[string]any{"dir_path": "", "ignore": []string{"*.md", "web"}}},
		{"nested gitignore", "list_util.txt", ReadOnlyOptions{}, map[string]any{"path": "src/util"}},
		{"cut", "list_cut.txt", ReadOnlyOptions{MaxListEntries: 3}, map[string]any{"dir_path": "."}},
		{"empty", "list_empty.txt", ReadOnlyOptions{}, map[string]any{"dir_path": "emptydir"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, toolByName(t, "list_directory", tt.opts), env, mustJSON(t, tt.args))
			if res.IsError {
				t.Fatalf("error result: %s", res.Text)
			}
			checkGolden(t, tt.golden, res.Text)
		})
	}
}

func TestListDirectoryErrors(t *testing.T) {
	root := newSandbox(t, "workspace.txtar")
	env := newEnv(t, root)
	tool := toolByName(t, "list_directory", ReadOnlyOptions{})
	for args, want := range map[string]string{
		`{"dir_path":"nope"}`:    "Directory not found: nope.",
		`{"dir_path":"main.go"}`: "main.go is a file, not a directory; use read_file to read it.",
	} {
		if res := call(t, tool, env, args); !res.IsError || res.Text != want {
			t.Errorf("%s: got (error %v) %q, want %q", args, res.IsError, res.Text, want)
		}
	}
	for args, want := range map[string]error{
		`{}`:                               tools.ErrInvalidArgs,
		`{"dir_path":".","ignore":["[x"]}`: tools.ErrInvalidArgs,
		`{"dir_path":"/"}`:                 tools.ErrOutsideRoots,
		`{"dir_path":"../"}`:               tools.ErrOutsideRoots,
	} {
		if _, err := tool.Prepare(env, json.RawMessage(args)); !errors.Is(err, want) {
			t.Errorf("Prepare(%s) = %v, want %v", args, err, want)
		}
	}
	inv, err := tool.Prepare(env, json.RawMessage(`{"dir_path":"src"}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled) = %v", err)
	}
	if inv.Title() != "List src" || !strings.HasSuffix(inv.Locations()[0].Path, "src") {
		t.Errorf("Title %q, Locations %v", inv.Title(), inv.Locations())
	}
}
