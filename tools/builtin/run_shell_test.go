//go:build unix

package builtin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// recorder is an Output that keeps what was streamed and the terminals
// shown, and closes seen once the stream contains want.
type recorder struct {
	want string
	seen chan struct{}

	// mu guards the fields below.
	mu        sync.Mutex
	text      strings.Builder
	writes    int
	terminals []string
}

func newRecorder(want string) *recorder { return &recorder{want: want, seen: make(chan struct{})} }

func (r *recorder) Write(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.text.WriteString(s)
	r.writes++
	if r.want != "" && strings.Contains(r.text.String(), r.want) {
		r.want = ""
		close(r.seen)
	}
}

func (r *recorder) ShowTerminal(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.terminals = append(r.terminals, id)
	if r.want == "terminal" {
		r.want = ""
		close(r.seen)
	}
}

func (r *recorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.text.String()
}

// shellEnv is a session over a fresh root with a state directory and a
// background registry closed at the end of the test.
func shellEnv(t *testing.T) *tools.Env {
	t.Helper()
	env := newEnv(t, testio.RealTempDir(t))
	env.StateDir = t.TempDir()
	bg := tools.NewBackground()
	env.Background = bg
	t.Cleanup(func() { _ = bg.Close() })
	return env
}

// shellTool returns one of the Shell tools by name.
func shellTool(t *testing.T, name string, opts ShellOptions) tools.Tool {
	t.Helper()
	tool, ok := tools.NewRegistry(Shell(opts)...).Get(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	return tool
}

// runShell runs a command with run_shell_command and returns its result
// and what was streamed.
func runShell(t *testing.T, env *tools.Env, opts ShellOptions, args map[string]any) (*tools.Result, *recorder) {
	t.Helper()
	inv, err := shellTool(t, "run_shell_command", opts).Prepare(env, []byte(mustJSON(t, args)))
	if err != nil {
		t.Fatalf("Prepare(%v): %v", args, err)
	}
	rec := newRecorder("")
	res, err := inv.Execute(context.Background(), rec)
	if err != nil {
		t.Fatalf("Execute(%v): %v", args, err)
	}
	return res, rec
}

// processGone reports whether pid has exited (a zombie not yet reaped by
// its new parent counts as gone).
func processGone(pid int) bool {
	if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return os.IsNotExist(err)
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return strings.HasPrefix(after, "Z")
}

// waitGone waits for pid to exit, failing the test if it never does.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for range 1000 {
		if processGone(pid) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d is still running", pid)
}

func TestRunShellExit(t *testing.T) {
	env := shellEnv(t)
	tests := []struct {
		command string
		code    int // -1: killed by a signal
		text    string
	}{
		{"true", 0, "(no output)\n---\nExit code: 0\n"},
		{"echo hi; exit 3", 3, "hi\n---\nExit code: 3\n"},
		{"printf 'no newline'", 0, "no newline\n---\nExit code: 0\n"},
		{"echo bye; kill -TERM $$", -1, "bye\n---\nThe command was killed by signal SIGTERM.\n"},
		{"nosuchcommand-xyz", 127, "nosuchcommand-xyz"},
	}
	for _, tt := range tests {
		res, _ := runShell(t, env, ShellOptions{}, map[string]any{"command": tt.command})
		raw := res.Raw.(ShellRaw)
		if res.IsError {
			t.Errorf("%q: IsError set; a finished command is not a tool failure", tt.command)
		}
		if !strings.Contains(res.Text, tt.text) {
			t.Errorf("%q: text %q lacks %q", tt.command, res.Text, tt.text)
		}
		switch {
		case tt.code < 0 && (raw.ExitCode != nil || raw.Signal != "SIGTERM"):
			t.Errorf("%q: raw exit %v signal %q, want SIGTERM", tt.command, raw.ExitCode, raw.Signal)
		case tt.code >= 0 && (raw.ExitCode == nil || *raw.ExitCode != tt.code):
			t.Errorf("%q: raw exit code %v, want %d", tt.command, raw.ExitCode, tt.code)
		}
	}
}

func TestRunShellMergedOutputInOrder(t *testing.T) {
	env := shellEnv(t)
	cmd := "for i in 1 2 3; do echo out$i; echo err$i >&2; done"
	res, rec := runShell(t, env, ShellOptions{}, map[string]any{"command": cmd})
	want := "out1\nerr1\nout2\nerr2\nout3\nerr3\n"
	if !strings.HasPrefix(res.Text, want+"---\n") {
		t.Errorf("text = %q, want it to start with %q", res.Text, want)
	}
	if rec.String() != want {
		t.Errorf("streamed %q, want %q", rec.String(), want)
	}
}

func TestRunShellDirectory(t *testing.T) {
	env := shellEnv(t)
	root := env.Roots.Primary()
	testio.WriteFile(t, filepath.Join(root, "sub", "f.txt"), []byte("x"))
	res, _ := runShell(t, env, ShellOptions{}, map[string]any{"command": "pwd; ls", "directory": "sub"})
	if want := filepath.Join(root, "sub") + "\nf.txt\n"; !strings.HasPrefix(res.Text, want) {
		t.Errorf("text = %q, want it to start with %q", res.Text, want)
	}
	res, _ = runShell(t, env, ShellOptions{}, map[string]any{"command": "pwd"})
	if !strings.HasPrefix(res.Text, root+"\n") {
		t.Errorf("default directory: text = %q, want %s", res.Text, root)
	}
	tool := shellTool(t, "run_shell_command", ShellOptions{})
	for _, bad := range []struct {
		args string
		want error
	}{
		{`{"command": "ls", "directory": "/"}`, tools.ErrOutsideRoots},
		{`{"command": "ls", "directory": "nope"}`, tools.ErrInvalidArgs},
		{`{"command": "ls", "directory": "sub/f.txt"}`, tools.ErrInvalidArgs},
		{`{"command": "  "}`, tools.ErrInvalidArgs},
		{`{}`, tools.ErrInvalidArgs},
	} {
		if _, err := tool.Prepare(env, []byte(bad.args)); !errors.Is(err, bad.want) {
			t.Errorf("Prepare(%s) = %v, want %v", bad.args, err, bad.want)
		}
	}
}

func TestRunShellConfirmation(t *testing.T) {
	env := shellEnv(t)
	tool := shellTool(t, "run_shell_command", ShellOptions{})
	inv, err := tool.Prepare(env, []byte(`{"command": "git status && LC_ALL=C rm -rf build > out.txt", "description": "Clean the build"}`))
	if err != nil {
		t.Fatal(err)
	}
	conf, err := inv.Confirmation(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := &tools.Confirmation{Type: tools.ConfirmExec, Title: "Clean the build", Command: "git status && LC_ALL=C rm -rf build > out.txt",
		Dir: env.Roots.Primary(), RootCommands: []string{"git", "rm"}, Parsed: true,
		Commands:  []tools.ShellCommand{{Words: []string{"git", "status"}}, {Words: []string{"rm", "-rf", "build"}}},
		Redirects: []string{"out.txt"}}
	if fmt.Sprintf("%+v", conf) != fmt.Sprintf("%+v", want) {
		t.Errorf("Confirmation =\n %+v\nwant\n %+v", conf, want)
	}
	if inv.Title() != "git status && LC_ALL=C rm -rf build > out.txt" {
		t.Errorf("Title = %q", inv.Title())
	}

	inv, _ = tool.Prepare(env, []byte(`{"command": "echo \"unterminated\nsecond line"}`))
	conf, _ = inv.Confirmation(context.Background())
	if conf.Parsed || conf.Title != `echo "unterminated …` || conf.Commands != nil {
		t.Errorf("unparseable: Parsed %v, Title %q, Commands %v", conf.Parsed, conf.Title, conf.Commands)
	}
	long := strings.Repeat("x", 300)
	if inv, _ = tool.Prepare(env, []byte(`{"command": "`+long+`"}`)); inv.Title() != strings.Repeat("x", maxTitleRunes)+" …" {
		t.Errorf("long title = %q", inv.Title())
	}
}

func TestRunShellCapsOutput(t *testing.T) {
	env := shellEnv(t)
	opts := ShellOptions{HeadBytes: 100, TailBytes: 200, StreamBytes: 50}
	res, rec := runShell(t, env, opts, map[string]any{"command": "seq 1 10000"})
	raw := res.Raw.(ShellRaw)
	if !raw.Truncated || raw.OutputFile == "" {
		t.Fatalf("raw = %+v, want truncated with a file", raw)
	}
	full, err := os.ReadFile(raw.OutputFile)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := 1; i <= 10000; i++ {
		want.WriteString(strconv.Itoa(i) + "\n")
	}
	if string(full) != want.String() || raw.Bytes != int64(want.Len()) {
		t.Errorf("saved output has %d bytes (raw says %d), want all %d", len(full), raw.Bytes, want.Len())
	}
	out, _, _ := strings.Cut(res.Text, "---\n")
	if !strings.HasPrefix(out, "1\n2\n3\n") || !strings.HasSuffix(out, "9999\n10000\n") ||
		!regexp.MustCompile(`\n\[\.\.\. [0-9.]+ KiB of output cut here \.\.\.\]\n`).MatchString(out) {
		t.Errorf("capped output = %q", out)
	}
	if len(out) > 100+200+60 {
		t.Errorf("capped output is %d bytes, want about 300", len(out))
	}
	if !strings.Contains(res.Text, raw.OutputFile) {
		t.Errorf("text does not name the saved file %s", raw.OutputFile)
	}
	if s := rec.String(); !strings.HasPrefix(s, "1\n2\n") || len(s) > 50+100 || !strings.Contains(s, "live output stops") {
		t.Errorf("streamed %q, want the first 50 bytes and a note", s)
	}
}

func TestRunShellRemovesSmallLogs(t *testing.T) {
	env := shellEnv(t)
	runShell(t, env, ShellOptions{}, map[string]any{"command": "echo small"})
	entries, err := os.ReadDir(filepath.Join(env.StateDir, "shell"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Errorf("logs left behind: %v", entries)
	}
}

func TestRunShellInactivityTimeout(t *testing.T) {
	env := shellEnv(t)
	opts := ShellOptions{InactivityTimeout: 300 * time.Millisecond, FlushInterval: 10 * time.Millisecond,
		KillGrace: 200 * time.Millisecond}
	res, _ := runShell(t, env, opts, map[string]any{"command": "echo started; sleep 60 & echo $! > pid; wait"})
	if !res.IsError || !strings.Contains(res.Text, "started\n") || !strings.Contains(res.Text, "printed nothing for 300ms") {
		t.Errorf("result = %+v, want a timeout error with the output so far", res)
	}
	waitGone(t, readPid(t, filepath.Join(env.Roots.Primary(), "pid")))
}

func TestRunShellOverallTimeout(t *testing.T) {
	env := shellEnv(t)
	opts := ShellOptions{Timeout: 200 * time.Millisecond, FlushInterval: 10 * time.Millisecond}
	res, _ := runShell(t, env, opts, map[string]any{"command": "while true; do echo tick; sleep 0.05; done"})
	if !res.IsError || !strings.Contains(res.Text, "ran longer than 200ms") || !strings.Contains(res.Text, "tick") {
		t.Errorf("result = %+v, want a timeout error", res)
	}
}

// readPid reads a pid a command wrote to a file.
func readPid(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

func TestRunShellCancelKillsGroup(t *testing.T) {
	for _, tt := range []struct{ name, command string }{
		{"child dies on SIGTERM", "sleep 60 & echo pid $!; wait"},
		{"child ignores SIGTERM", "trap '' TERM; sleep 60 & echo pid $!; wait"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			env := shellEnv(t)
			opts := ShellOptions{FlushInterval: 5 * time.Millisecond, KillGrace: 200 * time.Millisecond}
			inv, err := shellTool(t, "run_shell_command", opts).Prepare(env, []byte(mustJSON(t, map[string]any{"command": tt.command})))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			rec := newRecorder("\n")
			go func() {
				<-rec.seen
				cancel()
			}()
			res, err := inv.Execute(ctx, rec)
			if !errors.Is(err, context.Canceled) || res != nil {
				t.Fatalf("Execute = %v, %v; want context.Canceled", res, err)
			}
			var pid int
			if _, err := fmt.Sscanf(rec.String(), "pid %d", &pid); err != nil {
				t.Fatalf("streamed %q: %v", rec.String(), err)
			}
			waitGone(t, pid)
		})
	}
}

func TestRunShellLeftoverProcessesAdopted(t *testing.T) {
	env := shellEnv(t)
	res, _ := runShell(t, env, ShellOptions{KillGrace: 200 * time.Millisecond},
		map[string]any{"command": "sleep 60 & echo $! > pid; echo started"})
	if !strings.Contains(res.Text, "background process bg1") {
		t.Fatalf("text = %q, want the leftover adopted as bg1", res.Text)
	}
	list := callBackground(t, env, "list_background_processes", `{}`)
	if !strings.HasPrefix(list.Text, "bg1  running  pid ") {
		t.Errorf("list = %q", list.Text)
	}
	if err := env.Background.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, readPid(t, filepath.Join(env.Roots.Primary(), "pid")))
}

func TestRunShellBackgroundNeedsRegistry(t *testing.T) {
	env := newEnv(t, testio.RealTempDir(t))
	env.StateDir = t.TempDir()
	res, _ := runShell(t, env, ShellOptions{}, map[string]any{"command": "sleep 1", "is_background": true})
	if !res.IsError || !strings.Contains(res.Text, "not available") {
		t.Errorf("result = %+v", res)
	}
}

func TestRunShellStartFailure(t *testing.T) {
	env := shellEnv(t)
	res, _ := runShell(t, env, ShellOptions{Shell: "/nonexistent/shell"}, map[string]any{"command": "true"})
	if !res.IsError || !strings.Contains(res.Text, "Could not start") {
		t.Errorf("result = %+v", res)
	}
}

func TestShellToolsAndDescriptions(t *testing.T) {
	want := map[string]tools.Kind{
		"run_shell_command": tools.KindExecute, "list_background_processes": tools.KindRead,
		"read_background_output": tools.KindRead, "kill_background_process": tools.KindExecute,
	}
	placeholder := regexp.MustCompile(`\{[a-z_]+\}`)
	var names []string
	for _, tool := range Shell(ShellOptions{InactivityTimeout: 90 * time.Second, HeadBytes: 4 << 10}) {
		names = append(names, tool.Name())
		if want[tool.Name()] != tool.Kind() {
			t.Errorf("%s kind %q", tool.Name(), tool.Kind())
		}
		if placeholder.MatchString(tool.Description()) {
			t.Errorf("%s description has a placeholder left: %s", tool.Name(), tool.Description())
		}
	}
	if len(names) != len(want) {
		t.Errorf("Shell returned %q", names)
	}
	desc := shellTool(t, "run_shell_command", ShellOptions{InactivityTimeout: 90 * time.Second, HeadBytes: 4 << 10}).Description()
	for _, w := range []string{"prints nothing for 1m30s", "first 4.0 KiB and last 20.0 KiB"} {
		if !strings.Contains(desc, w) {
			t.Errorf("description lacks %q", w)
		}
	}
	if !slices.Contains(names, "run_shell_command") {
		t.Error("no run_shell_command")
	}
}
