//go:build unix

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

// swapFixture is a session root with a folder "later" and an outside
// folder holding files of the same names: later/x.txt says INSIDE, the
// outside x.txt says OUTSIDE.
func swapFixture(t *testing.T) (root, outside string) {
	t.Helper()
	root, outside = testio.RealTempDir(t), testio.RealTempDir(t)
	testio.WriteFile(t, filepath.Join(root, "later", "x.txt"), []byte("INSIDE\n"))
	testio.WriteFile(t, filepath.Join(root, "later", "r.txt"), []byte("keep\n"))
	testio.WriteFile(t, filepath.Join(outside, "x.txt"), []byte("OUTSIDE\n"))
	testio.WriteFile(t, filepath.Join(outside, "r.txt"), []byte("keep\n"))
	testio.WriteFile(t, filepath.Join(outside, "outside-only.txt"), []byte("OUTSIDE\n"))
	return root, outside
}

// snapshot returns every file under dir with its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		out[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// flipFolder turns root/later into a symbolic link to outside and back
// until stop is closed.
func flipFolder(root, outside string, stop <-chan struct{}) {
	later, off := filepath.Join(root, "later"), filepath.Join(root, "later.off")
	for {
		select {
		case <-stop:
			return
		default:
		}
		_ = os.Rename(later, off)
		_ = os.Symlink(outside, later)
		_ = os.Remove(later)
		_ = os.Rename(off, later)
	}
}

// TestSymlinkSwapRace runs read_file, write_file, replace and
// list_directory many times while a goroutine flips a folder between a
// real directory and a symbolic link to an outside one. Every path was
// checked while the folder was real: no call may read or change anything
// outside.
func TestSymlinkSwapRace(t *testing.T) {
	root, outside := swapFixture(t)
	before := snapshot(t, outside)
	env := newEnv(t, root)
	edits := tools.NewRegistry(Editing(EditOptions{})...)
	reads := tools.NewRegistry(ReadOnly(ReadOnlyOptions{})...)
	const n = 300
	type job struct {
		inv  tools.Invocation
		leak string // a result text containing this read outside
	}
	var jobs []job
	for i := range n {
		add := func(reg *tools.Registry, name string, args any, leak string) {
			tool, _ := reg.Get(name)
			jobs = append(jobs, job{prepare(t, tool, env, args), leak})
		}
		add(reads, "read_file", map[string]any{"file_path": "later/x.txt"}, "OUTSIDE")
		add(reads, "list_directory", map[string]any{"dir_path": "later"}, "outside-only")
		add(edits, "write_file", map[string]any{"file_path": fmt.Sprintf("later/w%d.txt", i), "content": "new\n"}, "")
		add(edits, "replace", map[string]any{"file_path": "later/r.txt", "old_string": "keep\n", "new_string": "keep\nmore\n", "allow_multiple": true}, "")
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { flipFolder(root, outside, stop) })
	ctx := context.Background()
	leaks := 0
	for _, j := range jobs {
		if _, err := j.inv.Confirmation(ctx); err != nil {
			continue // the folder was away: nothing to do
		}
		res, err := j.inv.Execute(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if j.leak != "" && strings.Contains(res.Text, j.leak) {
			leaks++
		}
	}
	close(stop)
	wg.Wait()
	if leaks > 0 {
		t.Errorf("%d of %d reads and listings showed outside content", leaks, 2*n)
	}
	if after := snapshot(t, outside); !mapsEqual(before, after) {
		t.Errorf("the outside folder changed:\nbefore %v\nafter  %v", before, after)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestSwappedAfterCheck swaps a folder for a symbolic link between the
// check (Prepare, Confirmation) and the operation, the way a permission
// card stays open: every tool refuses and nothing outside is read or
// written. Writes outside the roots (approved by the user) are confined
// the same way.
func TestSwappedAfterCheck(t *testing.T) {
	tests := []struct {
		name, tool string
		args       map[string]any
		outsideDir bool // the path is outside the roots to begin with
	}{
		{"write_file", "write_file", map[string]any{"file_path": "later/new.txt", "content": "hi\n"}, false},
		{"write_file over", "write_file", map[string]any{"file_path": "later/x.txt", "content": "hi\n"}, false},
		{"replace", "replace", map[string]any{"file_path": "later/x.txt", "old_string": "INSIDE", "new_string": "changed"}, false},
		{"write_file approved outside", "write_file", map[string]any{"file_path": "{out}/later/new.txt", "content": "hi\n"}, true},
		{"read_file", "read_file", map[string]any{"file_path": "later/x.txt"}, false},
		{"list_directory", "list_directory", map[string]any{"dir_path": "later"}, false},
		{"glob", "glob", map[string]any{"pattern": "**/*.txt", "dir_path": "later"}, false},
		{"grep", "grep", map[string]any{"pattern": "OUTSIDE|INSIDE", "dir_path": "later"}, false},
		{"read_many_files", "read_many_files", map[string]any{"paths": []string{"later"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, outside := swapFixture(t)
			target := testio.RealTempDir(t) // where the link leads: must stay untouched
			testio.WriteFile(t, filepath.Join(target, "x.txt"), []byte("OUTSIDE\n"))
			base := root
			if tt.outsideDir {
				base = outside
				testio.WriteFile(t, filepath.Join(outside, "later", "x.txt"), []byte("INSIDE\n"))
			}
			for k, v := range tt.args {
				if s, ok := v.(string); ok {
					tt.args[k] = strings.ReplaceAll(s, "{out}", outside)
				}
			}
			before := snapshot(t, target)
			env := newEnv(t, root)
			reg := tools.NewRegistry(append(append(Editing(EditOptions{}), Extras(ExtraOptions{})...), ReadOnly(ReadOnlyOptions{})...)...)
			tool, ok := reg.Get(tt.tool)
			if !ok {
				t.Fatalf("no tool %s", tt.tool)
			}
			inv := prepare(t, tool, env, tt.args)
			if _, err := inv.Confirmation(context.Background()); err != nil {
				t.Fatal(err)
			}
			later := filepath.Join(base, "later")
			if err := os.Rename(later, later+".away"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, later); err != nil {
				t.Fatal(err)
			}
			res, err := inv.Execute(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(res.Text, "OUTSIDE") {
				t.Errorf("result shows the link's target: %s", res.Text)
			}
			if after := snapshot(t, target); !mapsEqual(before, after) {
				t.Errorf("the link's target changed: %v", after)
			}
		})
	}
}

// TestLocalFilesConfined checks LocalFiles, which an editor without fs
// support falls back to, confines its work when the tools pass their
// roots, and works as before without them.
func TestLocalFilesConfined(t *testing.T) {
	root, outside := swapFixture(t)
	env := newEnv(t, root)
	ctx := tools.WithRoots(context.Background(), env.Roots)
	x := filepath.Join(root, "later", "x.txt")
	if got, err := (tools.LocalFiles{}).ReadTextFile(ctx, x); err != nil || got != "INSIDE\n" {
		t.Fatalf("read = %q, %v", got, err)
	}
	later := filepath.Join(root, "later")
	if err := os.Rename(later, later+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, later); err != nil {
		t.Fatal(err)
	}
	if got, err := (tools.LocalFiles{}).ReadTextFile(ctx, x); !errors.Is(err, tools.ErrPathChanged) {
		t.Errorf("read through a swapped folder = %q, %v; want ErrPathChanged", got, err)
	}
	if err := (tools.LocalFiles{}).WriteTextFile(ctx, filepath.Join(later, "new.txt"), "x"); !errors.Is(err, tools.ErrPathChanged) {
		t.Errorf("write through a swapped folder: %v; want ErrPathChanged", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "new.txt")); err == nil {
		t.Error("the write landed outside")
	}
	// Without roots (memory files, editor context) links are followed.
	if got, err := (tools.LocalFiles{}).ReadTextFile(context.Background(), x); err != nil || got != "OUTSIDE\n" {
		t.Errorf("read without roots = %q, %v", got, err)
	}
}

// countingFiles is an editor's Files that counts reads and serves none.
type countingFiles struct {
	mu    sync.Mutex
	reads int
}

func (f *countingFiles) ReadTextFile(context.Context, string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	return "", errors.New("the editor was asked")
}

func (f *countingFiles) WriteTextFile(context.Context, string, string) error { return nil }

// TestHugeFileNotRead checks a 2 GiB file (sparse) is judged from its size
// and first bytes: read_file with limit 1 says it is binary, replace
// refuses it for its size, and neither reads it whole or asks the editor
// for it.
func TestHugeFileNotRead(t *testing.T) {
	root := testio.RealTempDir(t)
	path := filepath.Join(root, "huge.dat")
	testio.WriteFile(t, path, nil)
	if err := os.Truncate(path, 2<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
		isError    bool
	}{
		{"read_file", "read_file", map[string]any{"file_path": "huge.dat", "limit": 1}, "binary file", false},
		{"replace", "replace", map[string]any{"file_path": "huge.dat", "old_string": "a", "new_string": "b"}, "over the 20.0 MiB limit", true},
		{"write_file", "write_file", map[string]any{"file_path": "huge.dat", "content": "b"}, "over the 20.0 MiB limit", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := &countingFiles{}
			env := newEnv(t, root)
			env.Files = files
			tool, _ := tools.NewRegistry(append(Editing(EditOptions{}), ReadOnly(ReadOnlyOptions{})...)...).Get(tt.tool)
			inv := prepare(t, tool, env, tt.args)
			var text string
			if conf, err := inv.Confirmation(context.Background()); err != nil {
				text = err.Error()
			} else if conf == nil {
				res, err := inv.Execute(context.Background(), nil)
				if err != nil || res.IsError != tt.isError {
					t.Fatalf("Execute = %+v, %v", res, err)
				}
				text = res.Text
			}
			if !strings.Contains(text, tt.want) {
				t.Errorf("got %q, want it to say %q", text, tt.want)
			}
			if files.reads != 0 {
				t.Errorf("the editor was asked for the file %d times", files.reads)
			}
		})
	}
}

// TestCoarseDiff checks the diff of a change too big to compare line by
// line: exact counts, the first lines shown, the rest counted.
func TestCoarseDiff(t *testing.T) {
	big := bigText(maxExactDiff + 1)
	lines := lineCount(big)
	tests := []struct {
		name           string
		before, after  string
		added, removed int
		first          string
	}{
		{"new file", "", big, lines, 0, "+line 0 of"},
		{"emptied", big, "", 0, lines, "-line 0 of"},
		{"crlf new file", "", strings.ReplaceAll(big, "\n", "\r\n"), lines, 0, "+line 0 of a big file written by write_file in one call\n"},
		{"middle rewritten", "a\nb\nc\nd\n" + big + "w\nx\ny\nz\n", "a\nb\nc\nd\n" + strings.ToUpper(big) + "w\nx\ny\nz\n", lines, lines, " b\n c\n d\n-line 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := unifiedDiff("f.txt", tt.before, tt.after)
			if d.added != tt.added || d.removed != tt.removed {
				t.Errorf("+%d -%d, want +%d -%d", d.added, d.removed, tt.added, tt.removed)
			}
			if !strings.Contains(d.text, tt.first) {
				t.Errorf("diff lacks %q:\n%s", tt.first, d.text[:min(len(d.text), 500)])
			}
			if n := strings.Count(d.text, "\n"); n > maxDisplayDiffLines {
				t.Errorf("diff has %d lines, want at most %d", n, maxDisplayDiffLines)
			}
			if !strings.Contains(d.text, "more lines)") {
				t.Error("diff does not say how many lines it left out")
			}
			if shown := cutLines(d.text, maxDisplayDiffLines); shown != d.text {
				t.Error("the display would cut the diff again")
			}
		})
	}
}

// TestWriteFileArgs checks write_file's direct decoding agrees with Bind:
// well-formed arguments decode the same, others get Bind's messages.
func TestWriteFileArgs(t *testing.T) {
	tests := []struct {
		args, want, wantErr string
	}{
		{`{"file_path":"a.txt","content":"x\ny"}`, "x\ny", ""},
		{`{"file_path":"a.txt","content":""}`, "", ""},
		{`{"file_path":"a.txt"}`, "", `missing required parameter "content"`},
		{`{"file_path":"a.txt","content":3}`, "", `parameter "content" must be`},
		{`[1]`, "", "JSON object"},
	}
	for _, tt := range tests {
		p, err := tools.Bind[writeFileParams](json.RawMessage(tt.args))
		checkWriteArgs(t, "Bind", tt.args, p, err, tt.want, tt.wantErr)
		var values map[string]any
		if json.Unmarshal([]byte(tt.args), &values) != nil {
			continue
		}
		p, err = tools.BindValues[writeFileParams](values)
		checkWriteArgs(t, "BindValues", tt.args, p, err, tt.want, tt.wantErr)
	}
}

func checkWriteArgs(t *testing.T, how, args string, p writeFileParams, err error, want, wantErr string) {
	t.Helper()
	switch {
	case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
		t.Errorf("%s(%s) error = %v, want %q", how, args, err, wantErr)
	case wantErr == "" && (err != nil || p.Content != want):
		t.Errorf("%s(%s) = %q, %v", how, args, p.Content, err)
	}
}

// TestMakeParentsConfined checks the editor write path's folder creation:
// inside the roots it makes missing folders; through a folder that became
// a symbolic link to the outside it makes nothing.
func TestMakeParentsConfined(t *testing.T) {
	root, outside := testio.RealTempDir(t), testio.RealTempDir(t)
	roots, err := tools.NewRoots(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := tools.WithRoots(context.Background(), roots)
	if err := tools.MakeParents(ctx, filepath.Join(root, "x", "y", "z.txt")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(root, "x", "y")); err != nil || !fi.IsDir() {
		t.Errorf("x/y not made: %v", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "later")); err != nil {
		t.Fatal(err)
	}
	if err := tools.MakeParents(ctx, filepath.Join(root, "later", "a", "f.txt")); err == nil {
		t.Error("MakeParents followed a symbolic link out of the roots")
	}
	if _, err := os.Stat(filepath.Join(outside, "a")); err == nil {
		t.Error("a folder was made outside the roots")
	}
}
