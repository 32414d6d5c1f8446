package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// iaGuard bounds every wait on the terminal so a hang fails the test
// instead of blocking the suite; it is no timing assertion.
const iaGuard = 60 * time.Second

// iaTerm is companion started alone on a pseudo-terminal, as a person
// starts it: stdin, stdout and stderr are the terminal, which is its
// controlling terminal, so Ctrl-C typed there is SIGINT.
type iaTerm struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	dir  string
	mu   sync.Mutex
	out  strings.Builder
	seen int // how far iaExpect has read
	done chan error
}

// iaStart starts `companion --script <script> args...` on a terminal in
// a fresh workspace.
func iaStart(t *testing.T, scriptJSON string, args ...string) *iaTerm {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sc := filepath.Join(t.TempDir(), "script.json")
	if !json.Valid([]byte(scriptJSON)) {
		t.Fatalf("bad script in test: %s", scriptJSON)
	}
	if err := os.WriteFile(sc, []byte(scriptJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(companionBin(t), append([]string{"--script", sc}, args...)...)
	cmd.Dir, cmd.Env = dir, env(t)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	if err != nil {
		t.Fatalf("starting companion on a terminal: %v", err)
	}
	it := &iaTerm{t: t, cmd: cmd, tty: tty, dir: dir, done: make(chan error, 1)}
	go it.copyOut()
	go func() { it.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-it.done
		tty.Close()
	})
	return it
}

// copyOut keeps what the terminal shows until it closes.
func (it *iaTerm) copyOut() {
	buf := make([]byte, 4096)
	for {
		n, err := it.tty.Read(buf)
		it.mu.Lock()
		it.out.Write(buf[:n])
		it.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// iaType types s on the terminal (a line needs its "\n"; "\x03" is
// Ctrl-C, "\x04" Ctrl-D).
func (it *iaTerm) iaType(s string) {
	it.t.Helper()
	if _, err := io.WriteString(it.tty, s); err != nil {
		it.t.Fatalf("typing %q: %v", s, err)
	}
}

// iaExpect waits until the terminal shows want after what earlier calls
// saw, and moves past it; it returns what the terminal showed up to and
// including want.
func (it *iaTerm) iaExpect(want string) string {
	it.t.Helper()
	deadline := time.Now().Add(iaGuard)
	for {
		it.mu.Lock()
		all := it.out.String()
		it.mu.Unlock()
		if i := strings.Index(all[it.seen:], want); i >= 0 {
			got := all[it.seen : it.seen+i+len(want)]
			it.seen += i + len(want)
			return got
		}
		if time.Now().After(deadline) {
			it.t.Fatalf("the terminal never showed %q; it shows:\n%s", want, all)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// iaExit waits for companion to exit and returns its exit code.
func (it *iaTerm) iaExit() int {
	it.t.Helper()
	select {
	case err := <-it.done:
		it.done <- err // for the cleanup
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			it.t.Fatalf("wait: %v", err)
		}
		return 0
	case <-time.After(iaGuard):
		it.mu.Lock()
		defer it.mu.Unlock()
		it.t.Fatalf("companion did not exit; the terminal shows:\n%s", it.out.String())
	}
	return -1
}

// iaShell is a scripted run_shell_command call.
func iaShell(command string) string {
	return fmt.Sprintf(`{"functionCall":{"name":"run_shell_command","args":{"command":%q,"description":"test"}}}`, command)
}

// TestInteractiveChat drives the chat as a person does: a prompt and its
// streamed answer, a shell command asked about and allowed inline (the
// file it creates is the proof), a slash command, then end of input.
func TestInteractiveChat(t *testing.T) {
	t.Parallel()
	it := iaStart(t, `{"turns":[
		{"match":"say hello","chunks":[{"text":"Hello "},{"text":"from the script."}]},
		{"match":"make the file","chunks":[`+iaShell("touch made.txt")+`]},
		{"match":"functionResponse","chunks":[{"text":"The file is made."}]}
	]}`)
	it.iaExpect("Ctrl-C cancels a turn")
	it.iaExpect("> ")
	it.iaType("say hello\n")
	it.iaExpect("Hello from the script.")
	it.iaExpect("> ")

	it.iaType("make the file\n")
	question := it.iaExpect("answer [")
	for _, want := range []string{"? Allow", "$ touch made.txt", "Allow this time [y]", "Reject [n]"} {
		if !strings.Contains(question, want) {
			t.Errorf("the question lacks %q:\n%s", want, question)
		}
	}
	if _, err := os.Stat(filepath.Join(it.dir, "made.txt")); err == nil {
		t.Fatal("the command ran before it was allowed")
	}
	it.iaType("y\n")
	it.iaExpect("The file is made.")
	it.iaExpect("> ")
	if _, err := os.Stat(filepath.Join(it.dir, "made.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}

	it.iaType("/help\n")
	it.iaExpect("/stats")
	it.iaExpect("> ")
	it.iaType("\x04")
	if code := it.iaExit(); code != 0 {
		t.Errorf("exit code at end of input = %d, want 0", code)
	}
}

// TestInteractiveRefuse: "n" refuses the call; the command does not run.
func TestInteractiveRefuse(t *testing.T) {
	t.Parallel()
	it := iaStart(t, `{"turns":[
		{"match":"make the file","chunks":[`+iaShell("touch made.txt")+`]},
		{"match":"functionResponse","chunks":[{"text":"Not made, then."}]}
	]}`)
	it.iaExpect("> ")
	it.iaType("make the file\n")
	it.iaExpect("answer [")
	it.iaType("maybe\n")
	it.iaExpect("Answer with y/a/n")
	it.iaType("n\n")
	it.iaExpect("Not made, then.")
	it.iaExpect("> ")
	if _, err := os.Stat(filepath.Join(it.dir, "made.txt")); err == nil {
		t.Error("the refused command ran")
	}
	it.iaType("/quit\n")
	if code := it.iaExit(); code != 0 {
		t.Errorf("exit code after /quit = %d, want 0", code)
	}
}

// TestInteractiveCtrlC: Ctrl-C cancels the running turn, streaming or
// waiting on a question (whose command then never runs), and the chat
// goes on; at the prompt a first Ctrl-C warns and a second one exits.
func TestInteractiveCtrlC(t *testing.T) {
	t.Parallel()
	it := iaStart(t, `{"turns":[
		{"match":"work long","chunks":[{"text":"working"}],"hang":true},
		{"match":"ask me","chunks":[`+iaShell("touch asked.txt")+`]},
		{"match":"after","chunks":[{"text":"Still here."}]}
	]}`)
	it.iaExpect("> ")
	it.iaType("work long\n")
	it.iaExpect("working")
	it.iaType("\x03")
	it.iaExpect("(cancelled)")
	it.iaExpect("> ")
	it.iaType("ask me\n")
	it.iaExpect("answer [")
	it.iaType("\x03")
	it.iaExpect("(cancelled)")
	it.iaExpect("> ")
	if _, err := os.Stat(filepath.Join(it.dir, "asked.txt")); err == nil {
		t.Error("the command of a cancelled question ran")
	}
	it.iaType("after\n")
	it.iaExpect("Still here.")
	it.iaExpect("> ")
	it.iaType("\x03")
	it.iaExpect("Ctrl-C again to exit")
	it.iaType("\x03")
	if code := it.iaExit(); code != 0 {
		t.Errorf("exit code after Ctrl-C twice = %d, want 0", code)
	}
}

// TestInteractiveAskUser: ask_user's questions are asked at the terminal,
// numbered; a number picks an option, "Other" by its number takes the
// person's own words, and both reach the model.
func TestInteractiveAskUser(t *testing.T) {
	t.Parallel()
	it := iaStart(t, `{"turns":[
		{"match":"plan storage","chunks":[`+askCall+`]},
		{"match":"1. Storage: SQLite\\n2. Extras: Search; in their own words: nightly backups","chunks":[{"text":"SQLite it is."}]}
	]}`)
	it.iaExpect("> ")
	it.iaType("plan storage\n")
	first := it.iaExpect("answer (a number")
	for _, want := range []string{"? (1/2) Storage: Where should sessions be stored?", "1) SQLite - One file, queries", "3) Other"} {
		if !strings.Contains(first, want) {
			t.Errorf("the question lacks %q:\n%s", want, first)
		}
	}
	it.iaType("1\n")
	it.iaExpect("? (2/2) Extras")
	it.iaExpect("answer (numbers such as 1,3")
	it.iaType("2,4\n")
	it.iaExpect("your answer: ")
	it.iaType("nightly backups\n")
	it.iaExpect("SQLite it is.")
	it.iaExpect("> ")
	it.iaType("/quit\n")
	if code := it.iaExit(); code != 0 {
		t.Errorf("exit code after /quit = %d, want 0", code)
	}
}
