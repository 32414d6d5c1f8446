package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// fakeFiles plays the editor: it serves buffers by path and reports others
// as missing, or fails with err when set.
type fakeFiles struct {
	buffers map[string]string
	err     error
}

func (f *fakeFiles) WriteTextFile(_ context.Context, path, content string) error {
	if f.err != nil {
		return f.err
	}
	if f.buffers == nil {
		f.buffers = map[string]string{}
	}
	f.buffers[path] = content
	return nil
}

func (f *fakeFiles) ReadTextFile(_ context.Context, path string) (string, error) {
	if f.err != nil {
		return "", f.err
	}
	text, ok := f.buffers[path]
	if !ok {
		return "", fmt.Errorf("editor: %s: %w", path, fs.ErrNotExist)
	}
	return text, nil
}

// numberedLines returns n lines "line 1" ... "line n", each ending in "\n".
func numberedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// readFileFixture adds generated files to the workspace sandbox.
func readFileFixture(t *testing.T) (root string, pngData []byte) {
	t.Helper()
	root = newSandbox(t, "workspace.txtar")
	testio.WriteFile(t, filepath.Join(root, "big.txt"), []byte(numberedLines(5400)))
	long := strings.Repeat("é", 2500)
	testio.WriteFile(t, filepath.Join(root, "long.txt"), []byte("short\n"+long+"\nend\n"))
	testio.WriteFile(t, filepath.Join(root, "crlf.txt"), []byte("one\r\ntwo\r\n"))
	testio.WriteFile(t, filepath.Join(root, "empty.txt"), nil)
	testio.WriteFile(t, filepath.Join(root, "blob.bin"), []byte("ELF\x00\x01\x02binary"))
	testio.WriteFile(t, filepath.Join(root, "img", "logo.svg"), []byte("<svg/>\n"))
	testio.WriteFile(t, filepath.Join(root, "doc.pdf"), []byte("%PDF-1.4\n%%EOF\n"))
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	testio.WriteFile(t, filepath.Join(root, "img", "pic.png"), buf.Bytes())
	return root, buf.Bytes()
}

func TestReadFileText(t *testing.T) {
	root, _ := readFileFixture(t)
	env := newEnv(t, root)
	tool := toolByName(t, "read_file", ReadOnlyOptions{})
	long := strings.Repeat("é", 2000) + lineCutMarker
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"whole file", map[string]any{"file_path": "main.go"},
			"package main\n\nfunc main() {\n\tprintln(\"hello\")\n}"},
		{"absolute path", map[string]any{"file_path": filepath.Join(root, "src", "app_test.go")},
			"package src\n\n// Hello test"},
		{"offset and limit", map[string]any{"file_path": "big.txt", "offset": 10, "limit": 3},
			"[Showing lines 11-13 of 5400; call read_file with offset 13 to read more.]\nline 11\nline 12\nline 13"},
		{"to the end", map[string]any{"file_path": "main.go", "offset": 3},
			"[Showing lines 4-5 of 5 (the end of the file).]\n\tprintln(\"hello\")\n}"},
		{"crlf", map[string]any{"file_path": "crlf.txt"}, "one\ntwo"},
		{"long line", map[string]any{"file_path": "long.txt"},
			"[1 line longer than 2000 characters was cut, marked \"... [line cut]\".]\nshort\n" + long + "\nend"},
		{"binary", map[string]any{"file_path": "blob.bin"}, "Cannot show blob.bin: it is a binary file."},
		{"empty", map[string]any{"file_path": "empty.txt"}, "empty.txt is empty."},
		{"svg is text", map[string]any{"file_path": "img/logo.svg"}, "<svg/>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, tool, env, mustJSON(t, tt.args))
			if res.IsError || res.Text != tt.want {
				t.Errorf("got (error %v)\n%q\nwant\n%q", res.IsError, res.Text, tt.want)
			}
		})
	}
}

func TestReadFileDefaultLimit(t *testing.T) {
	root, _ := readFileFixture(t)
	env := newEnv(t, root)
	res := call(t, toolByName(t, "read_file", ReadOnlyOptions{}), env, `{"file_path":"big.txt"}`)
	lines := strings.Split(res.Text, "\n")
	if want := "[Showing lines 1-2000 of 5400; call read_file with offset 2000 to read more.]"; lines[0] != want {
		t.Errorf("note = %q, want %q", lines[0], want)
	}
	if len(lines) != 2001 || lines[2000] != "line 2000" {
		t.Errorf("got %d lines ending %q", len(lines), lines[len(lines)-1])
	}
	raw := res.Raw.(ReadFileRaw)
	if raw.StartLine != 1 || raw.EndLine != 2000 || raw.TotalLines != 5400 || !raw.Truncated {
		t.Errorf("raw = %+v", raw)
	}
}

func TestReadFileMedia(t *testing.T) {
	root, pngData := readFileFixture(t)
	env := newEnv(t, root)
	res := call(t, toolByName(t, "read_file", ReadOnlyOptions{}), env, `{"file_path":"img/pic.png"}`)
	if len(res.Images) != 1 || res.Images[0].MIMEType != "image/png" || !bytes.Equal(res.Images[0].Data, pngData) {
		t.Fatalf("images = %+v", res.Images)
	}
	if want := fmt.Sprintf("Read image img/pic.png (image/png, %d bytes).", len(pngData)); res.Text != want {
		t.Errorf("text = %q, want %q", res.Text, want)
	}
	res = call(t, toolByName(t, "read_file", ReadOnlyOptions{}), env, `{"file_path":"doc.pdf"}`)
	if len(res.Images) != 1 || res.Images[0].MIMEType != "application/pdf" {
		t.Errorf("pdf images = %+v", res.Images)
	}
	small := toolByName(t, "read_file", ReadOnlyOptions{MaxMediaBytes: 10})
	res = call(t, small, env, `{"file_path":"img/pic.png"}`)
	if !res.IsError || len(res.Images) != 0 || !strings.Contains(res.Text, "over the 10 bytes limit") {
		t.Errorf("oversized image: %+v", res)
	}
}

func TestReadFileErrors(t *testing.T) {
	root, _ := readFileFixture(t)
	env := newEnv(t, root)
	tool := toolByName(t, "read_file", ReadOnlyOptions{})
	tests := []struct{ args, want string }{
		{`{"file_path":"nope.txt"}`, "File not found: nope.txt. Check the path with glob or list_directory."},
		{`{"file_path":"img/nope.png"}`, "File not found: img/nope.png. Check the path with glob or list_directory."},
		{`{"file_path":"src"}`, "src is a directory, not a file; use list_directory to see what it holds."},
		{`{"file_path":"main.go","offset":5}`, "offset 5 is past the end of main.go, which has 5 lines; use an offset below 5."},
	}
	for _, tt := range tests {
		res := call(t, tool, env, tt.args)
		if !res.IsError || res.Text != tt.want {
			t.Errorf("%s: got (error %v) %q, want %q", tt.args, res.IsError, res.Text, tt.want)
		}
	}
}

func TestReadFileThroughEditor(t *testing.T) {
	root, _ := readFileFixture(t)
	env := newEnv(t, root)
	env.Files = &fakeFiles{buffers: map[string]string{
		filepath.Join(root, "main.go"):   "unsaved\nbuffer\n",
		filepath.Join(root, "newbuf.go"): "only in the editor",
	}}
	tool := toolByName(t, "read_file", ReadOnlyOptions{})
	tests := []struct {
		args, want string
		isError    bool
	}{
		{`{"file_path":"main.go"}`, "unsaved\nbuffer", false},
		{`{"file_path":"newbuf.go"}`, "only in the editor", false},
		{`{"file_path":"README.md"}`, "File not found: README.md. Check the path with glob or list_directory.", true},
	}
	for _, tt := range tests {
		res := call(t, tool, env, tt.args)
		if res.IsError != tt.isError || res.Text != tt.want {
			t.Errorf("%s: got (error %v) %q, want %q", tt.args, res.IsError, res.Text, tt.want)
		}
	}
	env.Files = &fakeFiles{err: errors.New("editor went away")}
	res := call(t, tool, env, `{"file_path":"main.go"}`)
	if !res.IsError || res.Text != "Could not read main.go: editor went away" {
		t.Errorf("editor failure: %+v", res)
	}
}

func TestReadFilePrepare(t *testing.T) {
	root, _ := readFileFixture(t)
	outside := testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(outside, "secret.txt"), []byte("no"))
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Skip(err)
	}
	env := newEnv(t, root)
	tool := toolByName(t, "read_file", ReadOnlyOptions{})
	for args, want := range map[string]error{
		mustJSON(t, map[string]any{"file_path": filepath.Join(outside, "secret.txt")}): tools.ErrOutsideRoots,
		`{"file_path":"../x"}`:              tools.ErrOutsideRoots,
		`{"file_path":"escape/secret.txt"}`: tools.ErrOutsideRoots,
		`{}`:                                tools.ErrInvalidArgs,
		`{"file_path":"  "}`:                tools.ErrInvalidArgs,
		`{"file_path":"a","limit":0}`:       tools.ErrInvalidArgs,
	} {
		if _, err := tool.Prepare(env, json.RawMessage(args)); !errors.Is(err, want) {
			t.Errorf("Prepare(%s) = %v, want %v", args, err, want)
		}
	}
	inv, err := tool.Prepare(env, json.RawMessage(`{"file_path":"src/app.go","offset":2}`))
	if err != nil {
		t.Fatal(err)
	}
	want := tools.Location{Path: filepath.Join(root, "src", "app.go"), Line: 3}
	if locs := inv.Locations(); len(locs) != 1 || locs[0] != want {
		t.Errorf("Locations() = %+v, want %+v", locs, want)
	}
	if c, err := inv.Confirmation(context.Background()); inv.Title() != "Read src/app.go" || c != nil || err != nil {
		t.Errorf("Title() = %q, Confirmation() = %v, %v", inv.Title(), c, err)
	}
}

func TestReadFileCancelled(t *testing.T) {
	root, _ := readFileFixture(t)
	env := newEnv(t, root)
	inv, err := toolByName(t, "read_file", ReadOnlyOptions{}).Prepare(env, json.RawMessage(`{"file_path":"big.txt"}`))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled) = %v", err)
	}
	if _, err := inv.Execute(newCountdownCtx(1), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled while reading) = %v", err)
	}
}
