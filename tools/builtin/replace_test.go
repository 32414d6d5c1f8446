package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// memFiles is a fake editor: files held in memory, as Files.
type memFiles struct {
	// mu guards the fields below.
	mu     sync.Mutex
	files  map[string]string
	writes int
}

func newMemFiles(files map[string]string) *memFiles {
	if files == nil {
		files = map[string]string{}
	}
	return &memFiles{files: files}
}

func (m *memFiles) ReadTextFile(_ context.Context, path string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	text, ok := m.files[path]
	if !ok {
		return "", fmt.Errorf("editor: %s: %w", path, fs.ErrNotExist)
	}
	return text, nil
}

func (m *memFiles) WriteTextFile(_ context.Context, path, content string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[path] = content
	m.writes++
	return nil
}

func (m *memFiles) get(path string) (string, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.files[path], m.writes
}

// editTool returns replace or write_file built with default options.
func editTool(t *testing.T, name string) tools.Tool {
	t.Helper()
	tool, ok := tools.NewRegistry(Editing(EditOptions{})...).Get(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	return tool
}

// prepare builds an invocation from args given as a Go value.
func prepare(t *testing.T, tool tools.Tool, env *tools.Env, args any) tools.Invocation {
	t.Helper()
	inv, err := tool.Prepare(env, json.RawMessage(mustJSON(t, args)))
	if err != nil {
		t.Fatalf("%s: Prepare: %v", tool.Name(), err)
	}
	return inv
}

// confirmAndRun asks for the confirmation, then executes.
func confirmAndRun(t *testing.T, inv tools.Invocation) (*tools.Confirmation, *tools.Result) {
	t.Helper()
	conf, err := inv.Confirmation(context.Background())
	if err != nil {
		t.Fatalf("Confirmation: %v", err)
	}
	res, err := inv.Execute(context.Background(), nil)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if res.IsError {
		t.Fatalf("Execute: error result: %s", res.Text)
	}
	return conf, res
}

func readString(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestReplaceLocal(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "a.go")
	testio.WriteFile(t, path, []byte("package a\n\nvar x = 1\n"))
	inv := prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
		"file_path": "a.go", "old_string": "var x = 1", "new_string": "var x = 2", "instruction": "Bump x.\nmore",
	})
	conf, res := confirmAndRun(t, inv)
	want := "package a\n\nvar x = 2\n"
	if got := readString(t, path); got != want {
		t.Errorf("file = %q, want %q", got, want)
	}
	if conf.Type != tools.ConfirmEdit || conf.Path != path || conf.OldText == nil ||
		*conf.OldText != "package a\n\nvar x = 1\n" || conf.NewText != want || conf.Title != "Edit a.go: Bump x." {
		t.Errorf("confirmation = %+v", conf)
	}
	if !strings.Contains(res.Text, "Edited a.go: replaced 1 occurrence") {
		t.Errorf("result text = %q", res.Text)
	}
	raw, ok := res.Raw.(EditRaw)
	if !ok || raw.Path != path || raw.Replacements != 1 || raw.Created || raw.Match != "exact" || raw.Added != 1 || raw.Removed != 1 {
		t.Errorf("raw = %+v", res.Raw)
	}
	if res.Diff == nil || res.Diff.Path != path || res.Diff.NewText != want || res.Diff.OldText == nil {
		t.Errorf("diff = %+v", res.Diff)
	}
	if !strings.Contains(res.Display, "-var x = 1\n+var x = 2\n") || !strings.Contains(res.Display, "Bump x.") {
		t.Errorf("display = %q", res.Display)
	}
	if locs := inv.Locations(); len(locs) != 1 || locs[0].Path != path || locs[0].Line != 3 {
		t.Errorf("locations = %+v", locs)
	}
}

func TestReplaceErrors(t *testing.T) {
	root := testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(root, "a.txt"), []byte("alpha\nbeta\nalpha\n"))
	testio.WriteFile(t, filepath.Join(root, "bin.dat"), []byte("ab\x00cd"))
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    map[string]any
		prepare string // a Prepare error containing this
		confirm string // else a Confirmation error containing this
	}{
		{"same strings", map[string]any{"file_path": "a.txt", "old_string": "beta", "new_string": "beta"}, "are the same", ""},
		{"empty path", map[string]any{"file_path": " ", "old_string": "a", "new_string": "b"}, "must not be empty", ""},
		{"elided code", map[string]any{"file_path": "a.go", "old_string": "a()\nb()\n", "new_string": "a()\n// ... rest of the code unchanged\n"}, `placeholder line "// ... rest of the code unchanged"`, ""},
		{"empty old on existing file", map[string]any{"file_path": "a.txt", "old_string": "", "new_string": "x"}, "", "already exists"},
		{"missing file", map[string]any{"file_path": "nope.txt", "old_string": "a", "new_string": "b"}, "", "File not found: nope.txt"},
		{"ambiguous", map[string]any{"file_path": "a.txt", "old_string": "alpha", "new_string": "gamma"}, "", "matches 2 places in a.txt: lines 1 and 3"},
		{"binary", map[string]any{"file_path": "bin.dat", "old_string": "ab", "new_string": "xy"}, "", "binary file"},
		{"directory", map[string]any{"file_path": "dir", "old_string": "ab", "new_string": "xy"}, "", "is a directory"},
		{"only indentation differs", map[string]any{"file_path": "a.txt", "old_string": "beta  ", "new_string": "beta"}, "", "unchanged"},
	}
	tool := editTool(t, "replace")
	env := newEnv(t, root)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv, err := tool.Prepare(env, json.RawMessage(mustJSON(t, tt.args)))
			if tt.prepare != "" {
				if err == nil || !strings.Contains(err.Error(), tt.prepare) {
					t.Fatalf("Prepare error = %v, want one containing %q", err, tt.prepare)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := inv.Confirmation(context.Background()); err == nil || !strings.Contains(err.Error(), tt.confirm) {
				t.Fatalf("Confirmation error = %v, want one containing %q", err, tt.confirm)
			}
			res, err := inv.Execute(context.Background(), nil)
			if err != nil || !res.IsError || !strings.Contains(res.Text, tt.confirm) {
				t.Errorf("Execute = %+v, %v; want an error result containing %q", res, err, tt.confirm)
			}
		})
	}
	if got := readString(t, filepath.Join(root, "a.txt")); got != "alpha\nbeta\nalpha\n" {
		t.Errorf("a.txt changed to %q", got)
	}
}

func TestReplaceCreatesFile(t *testing.T) {
	root := testio.RealTempDir(t)
	inv := prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
		"file_path": "new/dir/b.txt", "old_string": "", "new_string": "hello\n",
	})
	conf, res := confirmAndRun(t, inv)
	path := filepath.Join(root, "new", "dir", "b.txt")
	if got := readString(t, path); got != "hello\n" {
		t.Errorf("file = %q", got)
	}
	if conf.OldText != nil || conf.NewText != "hello\n" {
		t.Errorf("confirmation OldText %v NewText %q; want nil and the content", conf.OldText, conf.NewText)
	}
	if raw := res.Raw.(EditRaw); !raw.Created || res.Diff.OldText != nil || !strings.Contains(res.Text, "Created new/dir/b.txt") {
		t.Errorf("result = %+v", res)
	}
}

func TestReplaceKeepsEncodingAndLineEnds(t *testing.T) {
	tests := []struct {
		name      string
		data      string
		old, new  string
		want      string
		allowMany bool
	}{
		{"crlf", "one\r\ntwo\r\nthree\r\n", "two\n", "2a\n2b\n", "one\r\n2a\r\n2b\r\nthree\r\n", false},
		{"crlf, old_string given with crlf", "one\r\ntwo\r\n", "one\r\ntwo", "1\r\n2", "1\r\n2\r\n", false},
		{"utf-8 bom", bomUTF8 + "héllo wörld\n", "wörld", "welt", bomUTF8 + "héllo welt\n", false},
		{"utf-16le", bomUTF16LE + "h\x00i\x00\r\x00\n\x00", "hi", "yo", bomUTF16LE + "y\x00o\x00\r\x00\n\x00", false},
		{"utf-16be", bomUTF16BE + "\x00h\x00i\x00\n", "hi", "hé", bomUTF16BE + "\x00h\x00\xe9\x00\n", false},
		{"final newline kept", "a\nb\n", "b\n", "c", "a\nc\n", false},
		{"no final newline stays so", "a\nb", "b", "c", "a\nc", false},
		{"allow_multiple", "x y x\n", "x", "z", "z y z\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testio.RealTempDir(t)
			path := filepath.Join(root, "f.txt")
			testio.WriteFile(t, path, []byte(tt.data))
			inv := prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
				"file_path": path, "old_string": tt.old, "new_string": tt.new, "allow_multiple": tt.allowMany,
			})
			confirmAndRun(t, inv)
			if got := readString(t, path); got != tt.want {
				t.Errorf("file = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestReplaceKeepsMode(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "run.sh")
	testio.WriteFile(t, path, []byte("#!/bin/sh\necho a\n"))
	if err := os.Chmod(path, 0o755); err != nil {
		t.Fatal(err)
	}
	confirmAndRun(t, prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
		"file_path": "run.sh", "old_string": "echo a", "new_string": "echo b",
	}))
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o755 {
		t.Errorf("mode = %v, want 0755", fi.Mode().Perm())
	}
}

func TestReplaceThroughEditor(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "a.go")
	testio.WriteFile(t, path, []byte("on disk\n"))
	files := newMemFiles(map[string]string{path: "unsaved\r\nbuffer\r\n"})
	env := newEnv(t, root)
	env.Files = files
	conf, _ := confirmAndRun(t, prepare(t, editTool(t, "replace"), env, map[string]any{
		"file_path": "a.go", "old_string": "buffer", "new_string": "text",
	}))
	if got, writes := files.get(path); got != "unsaved\r\ntext\r\n" || writes != 1 {
		t.Errorf("editor file = %q after %d writes", got, writes)
	}
	if *conf.OldText != "unsaved\r\nbuffer\r\n" {
		t.Errorf("confirmation old text = %q, want the editor's", *conf.OldText)
	}
	if got := readString(t, path); got != "on disk\n" {
		t.Errorf("disk file changed to %q; writes must go through the editor", got)
	}
	// A file the editor does not have is created through it.
	confirmAndRun(t, prepare(t, editTool(t, "replace"), env, map[string]any{
		"file_path": "b.go", "old_string": "", "new_string": "package b\n",
	}))
	if got, _ := files.get(filepath.Join(root, "b.go")); got != "package b\n" {
		t.Errorf("created through the editor: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "b.go")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("b.go was written to disk: %v", err)
	}
}

func TestReplaceOutsideRootsIsProposed(t *testing.T) {
	root, outside := testio.RealTempDir(t), testio.RealTempDir(t)
	path := filepath.Join(outside, "o.txt")
	testio.WriteFile(t, path, []byte("old\n"))
	conf, _ := confirmAndRun(t, prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
		"file_path": path, "old_string": "old", "new_string": "new",
	}))
	if conf.Path != path {
		t.Errorf("confirmation path = %q, want %q", conf.Path, path)
	}
	if got := readString(t, path); got != "new\n" {
		t.Errorf("file = %q", got)
	}
}

func TestReplaceFuzzyResultSaysSo(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "a.txt")
	testio.WriteFile(t, path, []byte("first line here\nsecond line here\nthird\n"))
	_, res := confirmAndRun(t, prepare(t, editTool(t, "replace"), newEnv(t, root), map[string]any{
		"file_path": "a.txt", "old_string": "first line hare\nsecond line here", "new_string": "1\n2",
	}))
	if got := readString(t, path); got != "1\n2\nthird\n" {
		t.Errorf("file = %q", got)
	}
	if !strings.Contains(res.Text, "did not match exactly; the closest text, lines 1-2") || res.Raw.(EditRaw).Match != "fuzzy" {
		t.Errorf("result = %q, raw %+v", res.Text, res.Raw)
	}
}

func TestEditingTools(t *testing.T) {
	ts := Editing(EditOptions{FuzzyThreshold: 0.9, MaxFileBytes: 3 << 20})
	if len(ts) != 2 {
		t.Fatalf("Editing returned %d tools", len(ts))
	}
	for _, tool := range ts {
		if tool.Kind() != tools.KindEdit {
			t.Errorf("%s kind %q", tool.Name(), tool.Kind())
		}
		if !strings.Contains(tool.Description(), "3.0 MiB") || strings.Contains(tool.Description(), "{") {
			t.Errorf("%s description:\n%s", tool.Name(), tool.Description())
		}
		inv, err := tool.Prepare(newEnv(t, testio.RealTempDir(t)), json.RawMessage(`{"file_path":"x","old_string":"","new_string":"y","content":"y"}`))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := inv.(tools.Modifiable); !ok {
			t.Errorf("%s invocation is not Modifiable", tool.Name())
		}
	}
	if !strings.Contains(ts[0].Description(), "at least 90% similar") {
		t.Errorf("replace description lacks the threshold:\n%s", ts[0].Description())
	}
}
