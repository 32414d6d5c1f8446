package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// readManyFixture is the workspace sandbox with a binary file, media and
// a long file added.
func readManyFixture(t *testing.T) (root string, pngData []byte) {
	t.Helper()
	root, pngData = readFileFixture(t)
	return root, pngData
}

// shownFiles returns the files a read_many_files result read, as shown.
func shownFiles(env *tools.Env, res *tools.Result) []string {
	raw, _ := res.Raw.(ReadManyFilesRaw)
	var out []string
	for _, abs := range raw.Files {
		out = append(out, env.Roots.Display(abs))
	}
	return out
}

func TestReadManyFilesGolden(t *testing.T) {
	root, _ := readManyFixture(t)
	env := newEnv(t, root)
	// The Go walk counts every ignored entry; ripgrep prunes them unseen.
	tool := extraTool(t, "read_many_files", ExtraOptions{Read: ReadOnlyOptions{RipgrepPath: "-"}})
	res := call(t, tool, env, `{"paths":["src/**/*.go","README.md","nope.md"],"exclude":["*_test.go"]}`)
	if res.IsError {
		t.Fatalf("error result: %s", res.Text)
	}
	checkGolden(t, "read_many_files.txt", res.Text)
	raw := res.Raw.(ReadManyFilesRaw)
	if raw.Excluded != 1 || raw.Ignored != 5 || raw.Bytes != 225 || raw.Truncated ||
		!slices.Equal(raw.Skipped, []SkippedFile{{Path: "nope.md", Reason: "not found"}}) {
		t.Errorf("raw = %+v", raw)
	}
	if res.Display != "Read 3 files (225 bytes)" {
		t.Errorf("display = %q", res.Display)
	}
}

func TestReadManyFilesSelection(t *testing.T) {
	root, _ := readManyFixture(t)
	env := newEnv(t, root)
	tool := extraTool(t, "read_many_files", ExtraOptions{})
	tests := []struct {
		name string
		args map[string]any
		want []string
	}{
		{"directory and file", map[string]any{"paths": []string{"docs", "main.go"}},
			[]string{"docs/guide.md", "docs/secret.txt", "main.go"}},
		{"not recursive", map[string]any{"paths": []string{"src"}, "recursive": false},
			[]string{"src/app.go", "src/app_test.go"}},
		{"exclude names", map[string]any{"paths": []string{"src"}, "exclude": []string{"*_TEST.go", "util"}},
			[]string{"src/app.go"}},
		{"exclude a path", map[string]any{"paths": []string{"src"}, "exclude": []string{"src/util/"}},
			[]string{"src/app.go", "src/app_test.go"}},
		{"without ignore files", map[string]any{"paths": []string{"src/util"}, "respect_git_ignore": false},
			[]string{"src/util/.gitignore", "src/util/generated.go", "src/util/keep.log", "src/util/strings.go"}},
		{"ignored file named", map[string]any{"paths": []string{"build/out.go"}, "respect_git_ignore": false},
			[]string{"build/out.go"}},
		{"each file once", map[string]any{"paths": []string{"main.go", "*.go", "./main.go", filepath.Join(root, "main.go")}},
			[]string{"main.go"}},
		{"glob ignores case", map[string]any{"paths": []string{"*.MD"}}, []string{"README.md"}},
		{"include adds", map[string]any{"paths": []string{"README.md"}, "include": []string{"docs/*.md", " "}},
			[]string{"README.md", "docs/guide.md"}},
		{"absolute glob", map[string]any{"paths": []string{filepath.Join(root, "web", "*.ts")}},
			[]string{"web/index.ts"}},
		{"media", map[string]any{"paths": []string{"img", "doc.pdf"}},
			[]string{"img/logo.svg", "img/pic.png", "doc.pdf"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, tool, env, mustJSON(t, tt.args))
			if got := shownFiles(env, res); res.IsError || !slices.Equal(got, tt.want) {
				t.Errorf("read %q (error %v), want %q\n%s", got, res.IsError, tt.want, res.Text)
			}
		})
	}
}

func TestReadManyFilesSkips(t *testing.T) {
	root, pngData := readManyFixture(t)
	env := newEnv(t, root)
	// The Go walk counts every ignored entry; ripgrep prunes them unseen.
	tool := extraTool(t, "read_many_files", ExtraOptions{Read: ReadOnlyOptions{RipgrepPath: "-"}})
	res := call(t, tool, env, `{"paths":["build/out.go","secret.txt","private","nope.txt","*.xyz","blob.bin"]}`)
	want := "No files were read.\nSkipped 6:\n" +
		"- build/out.go: ignored by .gitignore or .geminiignore; pass respect_git_ignore false to read it\n" +
		"- secret.txt: ignored by .gitignore or .geminiignore; pass respect_git_ignore false to read it\n" +
		"- private: ignored by .gitignore or .geminiignore; pass respect_git_ignore false to read it\n" +
		"- nope.txt: not found\n" +
		"- *.xyz: no files match this pattern\n" +
		"- blob.bin: binary file\n" +
		"(.gitignore or .geminiignore rules left out 4 entries; pass respect_git_ignore false to include them.)"
	if !res.IsError || res.Text != want {
		t.Errorf("got (error %v)\n%s\nwant\n%s", res.IsError, res.Text, want)
	}

	res = call(t, tool, env, `{"paths":["img/pic.png","main.go"]}`)
	if len(res.Images) != 1 || string(res.Images[0].Data) != string(pngData) {
		t.Errorf("images = %d", len(res.Images))
	}
	if !strings.HasPrefix(res.Text, "--- img/pic.png ---\nRead image img/pic.png (image/png, ") {
		t.Errorf("media section:\n%s", res.Text)
	}
	small := extraTool(t, "read_many_files", ExtraOptions{Read: ReadOnlyOptions{MaxMediaBytes: 30}})
	res = call(t, small, env, `{"paths":["doc.pdf","img/pic.png"]}`)
	if got := shownFiles(env, res); len(res.Images) != 1 || !slices.Equal(got, []string{"doc.pdf"}) ||
		!strings.Contains(res.Text, "- img/pic.png: img/pic.png is 7") {
		t.Errorf("media limit: read %q, %d images:\n%s", got, len(res.Images), res.Text)
	}
}

func TestReadManyFilesLimits(t *testing.T) {
	root, _ := readManyFixture(t)
	env := newEnv(t, root)
	few := extraTool(t, "read_many_files", ExtraOptions{MaxReadFiles: 2})
	res := call(t, few, env, `{"paths":["src"]}`)
	raw := res.Raw.(ReadManyFilesRaw)
	if got := shownFiles(env, res); !slices.Equal(got, []string{"src/app.go", "src/app_test.go"}) ||
		raw.NotRead != 3 || !slices.Equal(raw.NotReadFiles, []string{"src/util/.gitignore", "src/util/keep.log", "src/util/strings.go"}) {
		t.Errorf("file limit: read %q, raw %+v", got, raw)
	}
	want := "[3 more files were not read because of the limit of 2 files per call; read them in another call: " +
		"src/util/.gitignore, src/util/keep.log, src/util/strings.go]"
	if !strings.Contains(res.Text, "--- End of content ---\n"+want) {
		t.Errorf("file limit note missing:\n%s", res.Text)
	}

	short := extraTool(t, "read_many_files", ExtraOptions{MaxReadBytes: 1000})
	res = call(t, short, env, `{"paths":["main.go","big.txt","README.md"]}`)
	raw = res.Raw.(ReadManyFilesRaw)
	if got := shownFiles(env, res); !slices.Equal(got, []string{"main.go", "big.txt"}) || !raw.Truncated ||
		raw.NotRead != 1 || raw.Bytes > 1200 {
		t.Errorf("size limit: read %q, raw %+v", got, raw)
	}
	for _, w := range []string{
		"\nline 105\n[Cut here: the output limit of 1000 bytes was reached; read the rest of big.txt with read_file.]\n\n--- End of content ---\n",
		"[1 more file was not read because of the output limit of 1000 bytes; read it in another call: README.md]",
	} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("size limit: result lacks %q:\n%s", w, res.Text)
		}
	}
}

func TestReadManyFilesThroughEditor(t *testing.T) {
	root, _ := readManyFixture(t)
	env := newEnv(t, root)
	env.Files = &fakeFiles{buffers: map[string]string{
		filepath.Join(root, "main.go"):   "unsaved\n",
		filepath.Join(root, "newbuf.go"): "only in the editor",
	}}
	res := call(t, extraTool(t, "read_many_files", ExtraOptions{}), env, `{"paths":["main.go","newbuf.go","README.md"]}`)
	want := "--- main.go ---\nunsaved\n\n--- newbuf.go ---\nonly in the editor\n\n--- End of content ---\n" +
		"Skipped 1:\n- README.md: File not found: README.md. Check the path with glob or list_directory"
	if res.IsError || res.Text != want {
		t.Errorf("got (error %v)\n%s\nwant\n%s", res.IsError, res.Text, want)
	}
}

func TestReadManyFilesPrepare(t *testing.T) {
	root, _ := readManyFixture(t)
	outside := testio.RealTempDir(t)
	env := newEnv(t, root)
	tool := extraTool(t, "read_many_files", ExtraOptions{})
	if tool.Kind() != tools.KindRead {
		t.Errorf("Kind() = %q", tool.Kind())
	}
	for args, want := range map[string]error{
		`{}`:                                    tools.ErrInvalidArgs,
		`{"paths":[]}`:                          tools.ErrInvalidArgs,
		`{"paths":["  "]}`:                      tools.ErrInvalidArgs,
		`{"paths":"main.go"}`:                   tools.ErrInvalidArgs,
		`{"paths":["main.go"],"exclude":["["]}`: tools.ErrInvalidArgs,
		`{"paths":["../x"]}`:                    tools.ErrOutsideRoots,
		mustJSON(t, map[string]any{"paths": []string{filepath.Join(outside, "*.txt")}}): tools.ErrOutsideRoots,
	} {
		if _, err := tool.Prepare(env, json.RawMessage(args)); !errors.Is(err, want) {
			t.Errorf("Prepare(%s) = %v, want %v", args, err, want)
		}
	}
	inv, err := tool.Prepare(env, json.RawMessage(`{"paths":["main.go","src/**/*.go"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if locs := inv.Locations(); len(locs) != 1 || locs[0].Path != filepath.Join(root, "main.go") {
		t.Errorf("Locations() = %+v", locs)
	}
	if c, err := inv.Confirmation(context.Background()); c != nil || err != nil || inv.Title() != "Read main.go, src/**/*.go" {
		t.Errorf("Confirmation() = %v, %v; Title() = %q", c, err, inv.Title())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := inv.Execute(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled) = %v", err)
	}
	if _, err := inv.Execute(newCountdownCtx(2), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Execute(cancelled while walking) = %v", err)
	}
}

func TestReadManyFilesSchema(t *testing.T) {
	env := newEnv(t, testio.RealTempDir(t))
	tool := extraTool(t, "read_many_files", ExtraOptions{})
	validate := compileSchema(t, tool.Schema())
	for args, ok := range map[string]bool{
		`{"paths":["a"]}`: true,
		`{"paths":["a"],"include":["b"],"exclude":["c"],"recursive":false,"respect_git_ignore":false}`: true,
		`{"include":["b"]}`:                false,
		`{"paths":[1]}`:                    false,
		`{"paths":["a"],"recursive":"no"}`: false,
	} {
		schemaErr := validate(args)
		_, err := tool.Prepare(env, json.RawMessage(args))
		if (schemaErr == nil) != ok || (err == nil) != ok {
			t.Errorf("%s: schema says %v, Prepare says %v; want ok=%v", args, schemaErr, err, ok)
		}
	}
}
