//go:build unix

package builtin

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"companion/internal/testkit/testio"
	"companion/tools"
)

// fakeTerminals is an editor that runs nothing: each terminal it starts
// has the output and exit the test sets, and every call is recorded.
type fakeTerminals struct {
	startErr error
	// output, exit (nil: runs until killed) and truncated shape the
	// terminals started.
	output    string
	exit      *tools.ExitStatus
	truncated bool
	outputErr error

	// mu guards the fields below.
	mu       sync.Mutex
	requests []tools.TerminalRequest
	terms    []*fakeTerm
}

func (f *fakeTerminals) StartTerminal(_ context.Context, req tools.TerminalRequest) (tools.Terminal, error) {
	if f.startErr != nil {
		return nil, f.startErr
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, req)
	t := &fakeTerm{id: fmt.Sprintf("term-%d", len(f.terms)+1), output: f.output, truncated: f.truncated,
		outputErr: f.outputErr, exited: make(chan struct{})}
	if f.exit != nil {
		t.exit = f.exit
		close(t.exited)
	}
	f.terms = append(f.terms, t)
	return t, nil
}

// term returns the i-th terminal started.
func (f *fakeTerminals) term(i int) *fakeTerm {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.terms[i]
}

// fakeTerm is one fake terminal.
type fakeTerm struct {
	id        string
	truncated bool
	outputErr error
	exited    chan struct{}

	// mu guards the fields below.
	mu                     sync.Mutex
	output                 string
	exit                   *tools.ExitStatus
	kills, releases, reads int
	releasedCtxErr         error
}

func (t *fakeTerm) ID() string { return t.id }

func (t *fakeTerm) Output(ctx context.Context) (tools.TerminalOutput, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reads++
	if t.outputErr != nil {
		return tools.TerminalOutput{}, t.outputErr
	}
	return tools.TerminalOutput{Output: t.output, Truncated: t.truncated, Exit: t.exit}, ctx.Err()
}

func (t *fakeTerm) Wait(ctx context.Context) (tools.ExitStatus, error) {
	select {
	case <-t.exited:
		t.mu.Lock()
		defer t.mu.Unlock()
		return *t.exit, nil
	case <-ctx.Done():
		return tools.ExitStatus{}, ctx.Err()
	}
}

func (t *fakeTerm) Kill(context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.kills++
	if t.exit == nil {
		t.exit = &tools.ExitStatus{Signal: "SIGKILL"}
		close(t.exited)
	}
	return nil
}

func (t *fakeTerm) Release(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.releases++
	t.releasedCtxErr = ctx.Err()
	return nil
}

// counts returns how often Kill and Release were called.
func (t *fakeTerm) counts() (kills, releases int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.kills, t.releases
}

func code(n int) *tools.ExitStatus { return &tools.ExitStatus{Code: &n} }

// terminalEnv is a session whose commands run in fake editor terminals.
func terminalEnv(t *testing.T, f *fakeTerminals) *tools.Env {
	t.Helper()
	env := newEnv(t, testio.RealTempDir(t))
	env.StateDir = t.TempDir()
	env.Terminals = f
	bg := tools.NewBackground()
	env.Background = bg
	t.Cleanup(func() { _ = bg.Close() })
	return env
}

// prepareShell prepares a run_shell_command call.
func prepareShell(t *testing.T, env *tools.Env, opts ShellOptions, args map[string]any) tools.Invocation {
	t.Helper()
	tool, _ := tools.NewRegistry(Shell(opts)...).Get("run_shell_command")
	inv, err := tool.Prepare(env, []byte(mustJSON(t, args)))
	if err != nil {
		t.Fatal(err)
	}
	return inv
}

func TestTerminalRun(t *testing.T) {
	f := &fakeTerminals{output: "hello\n", exit: code(2)}
	env := terminalEnv(t, f)
	rec := newRecorder("")
	res, err := prepareShell(t, env, ShellOptions{}, map[string]any{"command": "make test"}).Execute(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Text != "hello\n---\nExit code: 2\n" {
		t.Errorf("result = %+v", res)
	}
	want := tools.TerminalRequest{Command: "bash", Args: []string{"-c", "make test"}, Dir: env.Roots.Primary(),
		Env: []string{"COMPANION=1"}, OutputByteLimit: 1 << 20}
	if fmt.Sprint(f.requests) != fmt.Sprint([]tools.TerminalRequest{want}) {
		t.Errorf("requests = %+v, want %+v", f.requests, want)
	}
	if fmt.Sprint(rec.terminals) != "[term-1]" {
		t.Errorf("ShowTerminal calls = %v", rec.terminals)
	}
	if kills, releases := f.term(0).counts(); kills != 0 || releases != 1 {
		t.Errorf("kills %d releases %d, want 0 and 1", kills, releases)
	}
}

func TestTerminalCancel(t *testing.T) {
	f := &fakeTerminals{output: "working\n"}
	env := terminalEnv(t, f)
	ctx, cancel := context.WithCancel(context.Background())
	rec := newRecorder("terminal")
	go func() {
		<-rec.seen
		cancel()
	}()
	res, err := prepareShell(t, env, ShellOptions{}, map[string]any{"command": "sleep 100"}).Execute(ctx, rec)
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("Execute = %+v, %v; want context.Canceled", res, err)
	}
	term := f.term(0)
	if kills, releases := term.counts(); kills != 1 || releases != 1 {
		t.Errorf("kills %d releases %d, want 1 and 1", kills, releases)
	}
	if term.releasedCtxErr != nil {
		t.Errorf("Release got a dead context: %v", term.releasedCtxErr)
	}
}

func TestTerminalInactivityTimeout(t *testing.T) {
	f := &fakeTerminals{output: "stuck\n"}
	env := terminalEnv(t, f)
	opts := ShellOptions{InactivityTimeout: 50 * time.Millisecond, FlushInterval: 5 * time.Millisecond}
	res, err := prepareShell(t, env, opts, map[string]any{"command": "read x"}).Execute(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || !strings.HasPrefix(res.Text, "stuck\n---\nThe command was killed: it printed nothing for 50ms.") {
		t.Errorf("result = %+v", res)
	}
	if kills, releases := f.term(0).counts(); kills != 1 || releases != 1 {
		t.Errorf("kills %d releases %d, want 1 and 1", kills, releases)
	}
}

func TestTerminalLargeOutputCapped(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\n", 6000) // 102000 bytes
	f := &fakeTerminals{output: big, exit: code(0), truncated: true}
	env := terminalEnv(t, f)
	res, err := prepareShell(t, env, ShellOptions{}, map[string]any{"command": "cat big"}).Execute(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	raw := res.Raw.(ShellRaw)
	saved, err := os.ReadFile(raw.OutputFile)
	if err != nil || string(saved) != big {
		t.Fatalf("saved output: %d bytes, %v; want all %d", len(saved), err, len(big))
	}
	if len(res.Text) > 32<<10 || !strings.Contains(res.Text, "of output cut here") ||
		!strings.Contains(res.Text, "The editor kept only the last 1.0 MiB") {
		t.Errorf("text (%d bytes) = %.300q...", len(res.Text), res.Text)
	}
}

func TestTerminalFailures(t *testing.T) {
	env := terminalEnv(t, &fakeTerminals{startErr: errors.New("no terminals")})
	res, err := prepareShell(t, env, ShellOptions{}, map[string]any{"command": "ls"}).Execute(context.Background(), nil)
	if err != nil || !res.IsError || !strings.Contains(res.Text, "no terminals") {
		t.Errorf("start failure: %+v, %v", res, err)
	}
	f := &fakeTerminals{exit: code(0), outputErr: errors.New("editor gone")}
	env = terminalEnv(t, f)
	if _, err := prepareShell(t, env, ShellOptions{}, map[string]any{"command": "ls"}).Execute(context.Background(), nil); err == nil {
		t.Error("a failed terminal/output read returned no error")
	}
	if _, releases := f.term(0).counts(); releases != 1 {
		t.Errorf("releases = %d after a failure, want 1", releases)
	}
}

func TestTerminalBackground(t *testing.T) {
	f := &fakeTerminals{output: "a\nb\nserver ready\n"}
	env := terminalEnv(t, f)
	rec := newRecorder("")
	args := map[string]any{"command": "npm run dev", "is_background": true}
	res, err := prepareShell(t, env, ShellOptions{}, args).Execute(context.Background(), rec)
	if err != nil || res.IsError || !strings.Contains(res.Text, "bg1") || !strings.Contains(res.Text, "term-1") {
		t.Fatalf("start = %+v, %v", res, err)
	}
	if fmt.Sprint(rec.terminals) != "[term-1]" {
		t.Errorf("ShowTerminal calls = %v", rec.terminals)
	}
	if list := callBackground(t, env, "list_background_processes", `{}`).Text; !strings.HasPrefix(list, "bg1  running  terminal term-1  started ") {
		t.Errorf("list = %q", list)
	}
	if read := callBackground(t, env, "read_background_output", `{"id": "bg1", "lines": 1}`).Text; read != "bg1 (running): the last 1 lines of output:\nserver ready" {
		t.Errorf("read = %q", read)
	}
	if kill := callBackground(t, env, "kill_background_process", `{"id": "bg1"}`).Text; kill != "Stopped bg1 (killed)." {
		t.Errorf("kill = %q", kill)
	}
	if read := callBackground(t, env, "read_background_output", `{"id": "bg1"}`).Text; !strings.Contains(read, "released") {
		t.Errorf("read after kill = %q", read)
	}
	if _, err := prepareShell(t, env, ShellOptions{}, args).Execute(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := env.Background.Close(); err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]int{{1, 1}, {1, 1}} {
		if kills, releases := f.term(i).counts(); kills != want[0] || releases != want[1] {
			t.Errorf("terminal %d: kills %d releases %d, want %v", i+1, kills, releases, want)
		}
	}
}

// callBackground calls one of the Shell tools with default options.
func callBackground(t *testing.T, env *tools.Env, name, args string) *tools.Result {
	t.Helper()
	tool, _ := tools.NewRegistry(Shell(ShellOptions{})...).Get(name)
	return call(t, tool, env, args)
}

func TestCapText(t *testing.T) {
	s := strings.Repeat("é", 100) // 200 bytes, 2 per character
	got, cut := capText(s, 11, 11)
	if !cut || !strings.HasPrefix(got, strings.Repeat("é", 5)+"\n[... ") || !strings.HasSuffix(got, "cut here ...]\n"+strings.Repeat("é", 5)) {
		t.Errorf("capText = %q, %v", got, cut)
	}
	if got, cut := capText("short", 3, 3); got != "short" || cut {
		t.Errorf("short text = %q, %v", got, cut)
	}
	if got := cleanText([]byte("a\xffb")); got != "a\uFFFDb" {
		t.Errorf("cleanText = %q", got)
	}
}

// TestTerminalDropsRelativePath: a command run in an editor terminal gets
// companion's PATH without its relative entries when it had any, as a
// local command does; otherwise the terminal's own PATH is left alone.
func TestTerminalDropsRelativePath(t *testing.T) {
	for _, path := range []string{"bin::/usr/bin:.", "/usr/bin:/bin"} {
		t.Setenv("PATH", path)
		f := &fakeTerminals{output: "", exit: code(0)}
		env := terminalEnv(t, f)
		if _, err := prepareShell(t, env, ShellOptions{}, map[string]any{"command": "ls"}).Execute(context.Background(), newRecorder("")); err != nil {
			t.Fatal(err)
		}
		want := []string{"COMPANION=1", "PATH=/usr/bin"}
		if path == "/usr/bin:/bin" {
			want = want[:1]
		}
		if got := f.requests[0].Env; !slices.Equal(got, want) {
			t.Errorf("PATH %q: terminal env %q, want %q", path, got, want)
		}
	}
}
