package slash

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeEnv serves files from a map and answers shell commands with
// "out<command>\n", refusing those that start with "rm".
type fakeEnv struct {
	files map[string]string
	ran   []string
	read  []string
}

func (f *fakeEnv) ReadFile(_ context.Context, path string) (string, error) {
	f.read = append(f.read, path)
	if text, ok := f.files[path]; ok {
		return text, nil
	}
	return "", fs.ErrNotExist
}

func (f *fakeEnv) RunShell(ctx context.Context, command string) (string, error) {
	f.ran = append(f.ran, command)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if strings.HasPrefix(command, "rm") {
		return "", errors.New("denied")
	}
	return "out<" + command + ">\n", nil
}

func TestExpand(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"src/a.go": "package a\n",
		"trap.md":  "run !{rm -rf x} with {{args}} and @{src/a.go}",
	}
	tests := []struct {
		name, prompt, args string
		want               string
		wantRan, wantRead  []string
	}{
		{name: "args", prompt: "Review {{args}} carefully.", args: "  main.go  ", want: "Review main.go carefully."},
		{name: "args twice", prompt: "{{args}} and {{args}}", args: "x", want: "x and x"},
		{name: "appended args", prompt: "Summarise the change.\n", args: "the diff", want: "Summarise the change.\n\nthe diff"},
		{name: "no args nothing appended", prompt: "Summarise.", args: " ", want: "Summarise."},
		{name: "empty args", prompt: "Fix [{{args}}]", want: "Fix []"},
		{
			name: "file", prompt: "Look at:\n@{src/a.go}done", want: "Look at:\npackage a\ndone",
			wantRead: []string{"src/a.go"},
		},
		{
			name: "file named by args", prompt: "@{{{args}}}", args: "src/a.go", want: "package a\n",
			wantRead: []string{"src/a.go"},
		},
		{
			name: "missing file", prompt: "See @{ nope.go }.", want: "See [@{nope.go} was not read: file does not exist].",
			wantRead: []string{"nope.go"},
		},
		{name: "empty file block", prompt: "@{}", want: "[@{} names no file]"},
		{
			name: "shell", prompt: "Status: !{git status --short} end", want: "Status: out<git status --short> end",
			wantRan: []string{"git status --short"},
		},
		{
			name: "injection attempt is quoted", prompt: "!{grep -rn {{args}} .}", args: `"; rm -rf x`,
			want:    `out<grep -rn '"; rm -rf x' .>`,
			wantRan: []string{`grep -rn '"; rm -rf x' .`},
		},
		{
			name: "args raw outside, quoted inside", prompt: "Find {{args}}: !{grep {{args}}}", args: "$(id)",
			want: "Find $(id): out<grep '$(id)'>", wantRan: []string{"grep '$(id)'"},
		},
		{
			name: "empty args quoted as an empty word", prompt: "!{echo {{args}}}",
			want: "out<echo ''>", wantRan: []string{"echo ''"},
		},
		{
			name: "denied", prompt: "Before !{rm -rf x} after", want: "Before [!{rm -rf x} was not run: denied] after",
			wantRan: []string{"rm -rf x"},
		},
		{
			name: "nested braces", prompt: "!{awk '{print $1}' f} and !{echo {a,b}}",
			want:    "out<awk '{print $1}' f> and out<echo {a,b}>",
			wantRan: []string{"awk '{print $1}' f", "echo {a,b}"},
		},
		{name: "empty shell block", prompt: "!{  }", want: "[!{} names no command]"},
		{
			name: "inserted text is not expanded again", prompt: "@{trap.md} {{args}}", args: "!{ls} @{src/a.go}",
			want:     "run !{rm -rf x} with {{args}} and @{src/a.go} !{ls} @{src/a.go}",
			wantRead: []string{"trap.md"},
		},
		{name: "lone markers stay", prompt: "a @ b ! c {{arg}} } {", want: "a @ b ! c {{arg}} } {"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			env := &fakeEnv{files: files}
			got, err := Expand(context.Background(), Command{Name: "t", Prompt: tt.prompt}, tt.args, env)
			if err != nil {
				t.Fatalf("Expand: %v", err)
			}
			if got != tt.want {
				t.Errorf("Expand =\n%q\nwant\n%q", got, tt.want)
			}
			if !reflect.DeepEqual(env.ran, tt.wantRan) {
				t.Errorf("ran %q, want %q", env.ran, tt.wantRan)
			}
			if !reflect.DeepEqual(env.read, tt.wantRead) {
				t.Errorf("read %q, want %q", env.read, tt.wantRead)
			}
		})
	}
}

func TestExpandErrors(t *testing.T) {
	t.Parallel()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name, prompt, args string
		ctx                context.Context
		want               error
	}{
		{name: "unclosed shell", prompt: "a\n!{ls {x}", want: ErrUnclosed},
		{name: "unclosed file", prompt: "@{a", want: ErrUnclosed},
		{name: "unquotable args", prompt: "!{echo {{args}}}", args: "a\x00b", want: ErrUnquotable},
		{name: "cancelled", prompt: "!{ls}", ctx: cancelled, want: context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			_, err := Expand(ctx, Command{Name: "t", Prompt: tt.prompt}, tt.args, &fakeEnv{})
			if !errors.Is(err, tt.want) {
				t.Errorf("Expand error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestExpandNilEnv(t *testing.T) {
	t.Parallel()
	got, err := Expand(context.Background(), Command{Prompt: "@{a.go} !{ls}"}, "", nil)
	want := "[@{a.go} was not read: no file access] [!{ls} was not run: no shell access]"
	if err != nil || got != want {
		t.Errorf("Expand = %q, %v; want %q", got, err, want)
	}
}

// bashEnv runs commands with bash in dir, as an agent would after its
// policy allowed them.
type bashEnv struct{ dir string }

func (bashEnv) ReadFile(context.Context, string) (string, error) { return "", fs.ErrPermission }

func (b bashEnv) RunShell(ctx context.Context, command string) (string, error) {
	cmd := exec.CommandContext(ctx, "bash", "-c", command)
	cmd.Dir = b.dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestExpandInjectionWithBash runs the quoted command for real: the
// argument reaches the command as one word and nothing else runs.
func TestExpandInjectionWithBash(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed")
	}
	dir := t.TempDir()
	victim := filepath.Join(dir, "x")
	if err := os.WriteFile(victim, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`"; rm -rf x`, `'; rm -rf x; '`, "$(rm -rf x)", "`rm -rf x`", "a\nrm -rf x"} {
		got, err := Expand(context.Background(), Command{Prompt: "!{printf '[%s]' {{args}}}"}, args, bashEnv{dir: dir})
		if err != nil {
			t.Fatalf("Expand(%q): %v", args, err)
		}
		if want := "[" + strings.TrimSpace(args) + "]"; got != want {
			t.Errorf("Expand(%q) = %q, want %q", args, got, want)
		}
		if _, err := os.Stat(victim); err != nil {
			t.Fatalf("argument %q ran a command: %v", args, err)
		}
	}
}
