package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
)

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		existing *string
		content  string
		want     string
		text     string // the result text contains this
	}{
		{name: "create", content: "package a\n", want: "package a\n", text: "Created a.go (1 lines)."},
		{name: "overwrite", existing: ptr("old\n"), content: "new\n", want: "new\n", text: "Overwrote a.go (+1 -1 lines)."},
		{name: "crlf kept", existing: ptr("a\r\nb\r\n"), content: "c\nd\n", want: "c\r\nd\r\n", text: "Overwrote"},
		{name: "final newline kept", existing: ptr("a\n"), content: "b", want: "b\n", text: "Overwrote"},
		{name: "final newline added when asked", existing: ptr("a"), content: "b\n", want: "b\n", text: "Overwrote"},
		{name: "bom kept", existing: ptr(bomUTF8 + "a\n"), content: "b\n", want: bomUTF8 + "b\n", text: "Overwrote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := testio.RealTempDir(t)
			path := filepath.Join(root, "a.go")
			if tt.existing != nil {
				testio.WriteFile(t, path, []byte(*tt.existing))
			}
			conf, res := confirmAndRun(t, prepare(t, editTool(t, "write_file"), newEnv(t, root), map[string]any{
				"file_path": "a.go", "content": tt.content,
			}))
			if got := readString(t, path); got != tt.want {
				t.Errorf("file = %q, want %q", got, tt.want)
			}
			if (conf.OldText == nil) != (tt.existing == nil) || conf.Title != "Write a.go" {
				t.Errorf("confirmation = %+v", conf)
			}
			if !strings.Contains(res.Text, tt.text) {
				t.Errorf("result text = %q, want it to contain %q", res.Text, tt.text)
			}
			if raw := res.Raw.(EditRaw); raw.Created != (tt.existing == nil) || raw.Replacements != 0 {
				t.Errorf("raw = %+v", raw)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestWriteFileRefusesElisionOfExistingCode(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "a.go")
	testio.WriteFile(t, path, []byte("package a\n\nfunc A() {}\n\nfunc B() {}\n"))
	inv := prepare(t, editTool(t, "write_file"), newEnv(t, root), map[string]any{
		"file_path": "a.go", "content": "package a\n\n// ... existing code ...\n\nfunc C() {}\n",
	})
	if _, err := inv.Confirmation(context.Background()); err == nil || !strings.Contains(err.Error(), "use replace") {
		t.Errorf("Confirmation error = %v", err)
	}
	// A new file may hold such a comment.
	confirmAndRun(t, prepare(t, editTool(t, "write_file"), newEnv(t, root), map[string]any{
		"file_path": "b.go", "content": "// ...\n",
	}))
}

func TestWriteFileThroughEditorAndUTF16(t *testing.T) {
	root := testio.RealTempDir(t)
	env := newEnv(t, root)
	files := newMemFiles(nil)
	env.Files = files
	confirmAndRun(t, prepare(t, editTool(t, "write_file"), env, map[string]any{"file_path": "x/n.txt", "content": "hi\n"}))
	if got, writes := files.get(filepath.Join(root, "x", "n.txt")); got != "hi\n" || writes != 1 {
		t.Errorf("editor file = %q after %d writes", got, writes)
	}

	// UTF-16 on disk: decoded for the proposal, encoded back on write.
	path := filepath.Join(root, "w.txt")
	testio.WriteFile(t, path, []byte(bomUTF16LE+"a\x00\r\x00\n\x00"))
	conf, _ := confirmAndRun(t, prepare(t, editTool(t, "write_file"), newEnv(t, root), map[string]any{
		"file_path": "w.txt", "content": "é\n",
	}))
	if *conf.OldText != "a\r\n" || conf.NewText != "é\r\n" {
		t.Errorf("proposal %q -> %q", *conf.OldText, conf.NewText)
	}
	if got := readString(t, path); got != bomUTF16LE+"\xe9\x00\r\x00\n\x00" {
		t.Errorf("file bytes = %q", got)
	}
}

func TestWriteFileSymlinkWritesTarget(t *testing.T) {
	root := testio.RealTempDir(t)
	target := filepath.Join(root, "real.txt")
	testio.WriteFile(t, target, []byte("a\n"))
	link := filepath.Join(root, "link.txt")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	tool := editTool(t, "write_file")
	inv, err := tool.Prepare(newEnv(t, root), json.RawMessage(`{"file_path":"link.txt","content":"b\n"}`))
	if err != nil {
		t.Fatal(err)
	}
	conf, _ := confirmAndRun(t, inv)
	if conf.Path != target || readString(t, target) != "b\n" {
		t.Errorf("path %q, target %q", conf.Path, readString(t, target))
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced by a file: %v %v", fi, err)
	}
}
