package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

func TestUseModifiedContent(t *testing.T) {
	for _, local := range []bool{true, false} {
		name := "editor"
		if local {
			name = "local"
		}
		t.Run(name, func(t *testing.T) {
			root := testio.RealTempDir(t)
			path := filepath.Join(root, "a.txt")
			env := newEnv(t, root)
			files := newMemFiles(map[string]string{path: "one\r\ntwo\r\nthree\r\n"})
			if local {
				testio.WriteFile(t, path, []byte("one\r\ntwo\r\nthree\r\n"))
			} else {
				env.Files = files
			}
			read := func() string {
				if local {
					return readString(t, path)
				}
				s, _ := files.get(path)
				return s
			}
			inv := prepare(t, editTool(t, "replace"), env, map[string]any{
				"file_path": "a.txt", "old_string": "two", "new_string": "2",
			})
			conf, err := inv.Confirmation(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if conf.NewText != "one\r\n2\r\nthree\r\n" {
				t.Fatalf("proposal = %q", conf.NewText)
			}
			// The user's editor hands the text back with LF line ends.
			inv.(tools.Modifiable).UseModifiedContent("one\n2\nthree\nfour\n")
			res, err := inv.Execute(context.Background(), nil)
			if err != nil || res.IsError {
				t.Fatalf("Execute = %+v, %v", res, err)
			}
			if got := read(); got != "one\r\n2\r\nthree\r\nfour\r\n" {
				t.Errorf("file = %q, want the user's text in the file's line ends", got)
			}
			for _, want := range []string{"The user modified your proposed change", "```diff\n", " three\n+four\n"} {
				if !strings.Contains(res.Text, want) {
					t.Errorf("result text lacks %q:\n%s", want, res.Text)
				}
			}
			if !res.Raw.(EditRaw).UserModified || res.Diff.NewText != "one\r\n2\r\nthree\r\nfour\r\n" {
				t.Errorf("raw %+v diff %+v", res.Raw, res.Diff)
			}
		})
	}
}

func TestUnmodifiedContentIsNotReported(t *testing.T) {
	root := testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(root, "a.txt"), []byte("x\r\nz\r\n"))
	inv := prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
		"file_path": "a.txt", "old_string": "x", "new_string": "y",
	})
	conf, err := inv.Confirmation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The editor may hand the proposal back with other line ends.
	inv.(tools.Modifiable).UseModifiedContent(strings.ReplaceAll(conf.NewText, "\r\n", "\n"))
	res, err := inv.Execute(context.Background(), nil)
	if err != nil || res.IsError || strings.Contains(res.Text, "modified") || res.Raw.(EditRaw).UserModified {
		t.Errorf("Execute = %+v, %v", res, err)
	}
	if got := readString(t, filepath.Join(root, "a.txt")); got != "y\r\nz\r\n" {
		t.Errorf("file = %q", got)
	}
}

func TestFileChangedAfterConfirmation(t *testing.T) {
	tests := []struct {
		name     string
		change   string
		modified string
		want     string // file afterwards
		errText  string // or an error result containing this
	}{
		{name: "recomputed", change: "header\nvar x = 1\n", want: "header\nvar x = 2\n"},
		{name: "no longer matches", change: "var y = 1\n", want: "var y = 1\n", errText: "changed after the edit was proposed. old_string was not found"},
		{name: "user's text not written over a change", change: "header\nvar x = 1\n", modified: "mine\n", want: "header\nvar x = 1\n", errText: "changed while the user was reviewing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testio.RealTempDir(t)
			path := filepath.Join(root, "a.go")
			testio.WriteFile(t, path, []byte("var x = 1\n"))
			inv := prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
				"file_path": "a.go", "old_string": "var x = 1", "new_string": "var x = 2",
			})
			if _, err := inv.Confirmation(context.Background()); err != nil {
				t.Fatal(err)
			}
			if tt.modified != "" {
				inv.(tools.Modifiable).UseModifiedContent(tt.modified)
			}
			testio.WriteFile(t, path, []byte(tt.change))
			res, err := inv.Execute(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.errText != "" && (!res.IsError || !strings.Contains(res.Text, tt.errText)) {
				t.Errorf("result = %+v, want an error containing %q", res, tt.errText)
			}
			if tt.errText == "" && res.IsError {
				t.Errorf("result = %+v", res)
			}
			if got := readString(t, path); got != tt.want {
				t.Errorf("file = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestExecuteWithoutConfirmation(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "a.txt")
	testio.WriteFile(t, path, []byte("a\n"))
	res := call(t, editTool(t, "replace"), newEnv(t, root), `{"file_path":"a.txt","old_string":"a","new_string":"b"}`)
	if res.IsError || readString(t, path) != "b\n" {
		t.Errorf("result %+v, file %q", res, readString(t, path))
	}
}

func TestEditRefusesLargeFiles(t *testing.T) {
	root := testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(root, "big.txt"), []byte(strings.Repeat("x", 2000)))
	tool, _ := tools.NewRegistry(Editing(EditOptions{MaxFileBytes: 1000})...).Get("write_file")
	inv, err := tool.Prepare(newEnv(t, root), json.RawMessage(`{"file_path":"big.txt","content":"y"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inv.Confirmation(context.Background()); err == nil || !strings.Contains(err.Error(), "over the 1000 bytes limit") {
		t.Errorf("Confirmation error = %v", err)
	}
}

func TestEditCancelled(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "a.txt")
	testio.WriteFile(t, path, []byte("a\n"))
	env := newEnv(t, root)
	env.Files = cancelledFiles{}
	inv := prepare(t, editTool(t, "write_file"), env, map[string]any{"file_path": "a.txt", "content": "b"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute on a cancelled context = %v, want context.Canceled", err)
	}
}

// cancelledFiles fails every call with its context's error.
type cancelledFiles struct{}

func (cancelledFiles) ReadTextFile(ctx context.Context, _ string) (string, error) {
	return "", ctx.Err()
}

func (cancelledFiles) WriteTextFile(ctx context.Context, _, _ string) error { return ctx.Err() }

func TestRootsAbs(t *testing.T) {
	root, _, outside := testio.RootsFixture(t)
	r, err := tools.NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"src/a.go":                    filepath.Join(root, "src", "a.go"),
		"inlink/new.go":               filepath.Join(root, "src", "new.go"),
		"outlink/o.txt":               filepath.Join(outside, "o.txt"),
		"dangling":                    filepath.Join(outside, "new"),
		"../x/../y":                   filepath.Join(filepath.Dir(root), "y"),
		filepath.Join(outside, "n/m"): filepath.Join(outside, "n", "m"),
	} {
		got, err := r.Abs(in)
		if err != nil || got != want {
			t.Errorf("Abs(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := r.Resolve("outlink/o.txt"); !errors.Is(err, tools.ErrOutsideRoots) {
		t.Errorf("Resolve still confines: %v", err)
	}
}

func TestReplaceKeepsExistingPlaceholder(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "a.js")
	testio.WriteFile(t, path, []byte("function f() {\n  // ...\n  return 1;\n}\n"))
	confirmAndRun(t, prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
		"file_path": "a.js", "old_string": "  // ...\n  return 1;", "new_string": "  // ...\n  return 2;",
	}))
	if got := readString(t, path); got != "function f() {\n  // ...\n  return 2;\n}\n" {
		t.Errorf("file = %q", got)
	}
}
