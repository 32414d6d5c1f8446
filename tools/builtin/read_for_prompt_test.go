package builtin

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// fileURI returns the file:// URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

func TestReadForPrompt(t *testing.T) {
	root, pngData := readFileFixture(t)
	testio.WriteFile(t, filepath.Join(root, "with space", "a b.txt"), []byte("spaced\n"))
	env := newEnv(t, root)
	tests := []struct {
		name, uri, want string
		images          int
	}{
		{"file URI", fileURI(filepath.Join(root, "main.go")),
			"package main\n\nfunc main() {\n\tprintln(\"hello\")\n}", 0},
		{"absolute path", filepath.Join(root, "src", "app_test.go"), "package src\n\n// Hello test", 0},
		{"localhost host", "file://localhost" + filepath.ToSlash(filepath.Join(root, "README.md")),
			"# Demo\n\nSay hello to the demo.", 0},
		{"escaped", fileURI(filepath.Join(root, "with space", "a b.txt")), "spaced", 0},
		{"line range", fileURI(filepath.Join(root, "big.txt")) + "#L11:13",
			"[Showing lines 11-13 of 5400; call read_file with offset 13 to read more.]\nline 11\nline 12\nline 13", 0},
		{"line range L-L", fileURI(filepath.Join(root, "big.txt")) + "#L5-L6",
			"[Showing lines 5-6 of 5400; call read_file with offset 6 to read more.]\nline 5\nline 6", 0},
		{"one line", fileURI(filepath.Join(root, "main.go")) + "#L5",
			"[Showing lines 5-5 of 5 (the end of the file).]\n}", 0},
		{"stale range", fileURI(filepath.Join(root, "main.go")) + "#L50:60",
			"package main\n\nfunc main() {\n\tprintln(\"hello\")\n}", 0},
		{"binary", filepath.Join(root, "blob.bin"), "Cannot show blob.bin: it is a binary file.", 0},
		{"image", fileURI(filepath.Join(root, "img", "pic.png")), "Read image img/pic.png (image/png, ", 1},
		{"directory", fileURI(filepath.Join(root, "src", "util")),
			"--- src/util/.gitignore ---\ngenerated.go\n!keep.log\n\n--- src/util/keep.log ---\nhello kept log\n\n" +
				"--- src/util/strings.go ---\npackage util\n\n// Hello world in capitals.\nfunc Hello() string { return \"hello\" }\n\n" +
				"--- End of content ---\n(.gitignore or .geminiignore rules left out 1 entry; pass respect_git_ignore false to include them.)", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, images, err := ReadForPrompt(context.Background(), env, tt.uri)
			if err != nil {
				t.Fatal(err)
			}
			if len(images) != tt.images || (tt.images == 0 && text != tt.want) ||
				(tt.images > 0 && (!strings.HasPrefix(text, tt.want) || string(images[0].Data) != string(pngData))) {
				t.Errorf("got %d images and\n%s\nwant %d images and\n%s", len(images), text, tt.images, tt.want)
			}
		})
	}
}

func TestReadForPromptErrors(t *testing.T) {
	root, _ := readFileFixture(t)
	outside := testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(outside, "secret.txt"), []byte("no"))
	env := newEnv(t, root)
	for uri, want := range map[string]error{
		fileURI(filepath.Join(root, "nope.txt")):      fs.ErrNotExist,
		fileURI(filepath.Join(root, "img", "no.png")): fs.ErrNotExist,
		fileURI(filepath.Join(outside, "secret.txt")): tools.ErrOutsideRoots,
		filepath.Join(outside, "secret.txt"):          tools.ErrOutsideRoots,
		"https://example.com/a.go":                    ErrNotFileURI,
		"zed:///agent/thread/1":                       ErrNotFileURI,
		"file://otherhost/etc/passwd":                 ErrNotFileURI,
		"":                                            ErrNotFileURI,
	} {
		if _, _, err := ReadForPrompt(context.Background(), env, uri); !errors.Is(err, want) {
			t.Errorf("ReadForPrompt(%q) = %v, want %v", uri, err, want)
		}
	}
	env.Files = &fakeFiles{buffers: map[string]string{filepath.Join(root, "new.go"): "editor only"}}
	if text, _, err := ReadForPrompt(context.Background(), env, fileURI(filepath.Join(root, "new.go"))); err != nil || text != "editor only" {
		t.Errorf("through the editor: %q, %v", text, err)
	}
	if _, _, err := ReadForPrompt(context.Background(), env, fileURI(filepath.Join(root, "main.go"))); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing in the editor: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env.Files = nil
	if _, _, err := ReadForPrompt(ctx, env, filepath.Join(root, "big.txt")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestLineRange(t *testing.T) {
	for frag, want := range map[string][2]int{
		"L10": {10, 10}, "L10:20": {10, 20}, "L10-20": {10, 20}, "L10-L20": {10, 20},
		"": {}, "L0": {}, "L20:10": {}, "Lx": {}, "10": {}, "L1:x": {},
	} {
		if got := lineRange(frag); got != want {
			t.Errorf("lineRange(%q) = %v, want %v", frag, got, want)
		}
	}
}

func TestExtrasRegistered(t *testing.T) {
	want := map[string]tools.Kind{"web_fetch": tools.KindFetch, "write_todos": tools.KindThink, "read_many_files": tools.KindRead, "ask_user": tools.KindOther}
	ts := Extras(ExtraOptions{})
	if len(ts) != len(want) {
		t.Fatalf("Extras returned %d tools, want %d", len(ts), len(want))
	}
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	for _, tool := range ts {
		if k, ok := want[tool.Name()]; !ok || tool.Kind() != k {
			t.Errorf("tool %q kind %q; want one of %v", tool.Name(), tool.Kind(), want)
		}
		if placeholder.MatchString(tool.Description()) {
			t.Errorf("%s description has an unexpanded placeholder:\n%s", tool.Name(), tool.Description())
		}
	}
	r := tools.NewRegistry(Extras(ExtraOptions{MaxFetchText: 2048, FetchTimeout: 7e9, MaxReadFiles: 9, MaxReadBytes: 4096})...)
	for name, wants := range map[string][]string{
		"web_fetch":       {"cut at 2.0 KiB", "after 7s", "At most 5 redirects", "At most 5.0 MiB"},
		"read_many_files": {"At most 9 files and 4.0 KiB", "at most 2000 lines per file", "up to 10.0 MiB"},
	} {
		tool, _ := r.Get(name)
		for _, w := range wants {
			if !strings.Contains(tool.Description(), w) {
				t.Errorf("%s description lacks %q", name, w)
			}
		}
	}
}
