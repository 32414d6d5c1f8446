package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

// TestCancelQuietStderr: cancelling a turn while the model streams
// prints no "Error context canceled" from the model library's standard
// logger on stderr (issue 29, item 7): its records go to companion's
// logger, at debug level.
func TestCancelQuietStderr(t *testing.T) {
	t.Parallel()
	ed := startAgent(t, agentOpts{script: `{"turns":[{"chunks":[{"text":"Starting"}],"hang":true}]}`,
		handler: acptest.NewFake().Handle, binary: true}) // the binary: its standard logger is the one routed
	ed.Initialize(map[string]any{})
	id := ed.NewSession(workspace(t, nil))
	resp := ed.Prompt(id, "go")
	ed.WaitUpdate(id, "agent_message_chunk")
	ed.Notify("session/cancel", map[string]any{"sessionId": id})
	if got := ed.StopReason(ed.Wait(resp)); got != "cancelled" {
		t.Fatalf("stopReason = %q", got)
	}
	ed.Close()
	if strings.Contains(ed.Stderr(), "context canceled") {
		t.Errorf("stderr shows the library's cancel log:\n%s", ed.Stderr())
	}
}

// TestPromptWithoutFlag: a prompt piped in without -p runs as Gemini CLI
// runs it, words after the flags are the prompt (with piped text after
// them), and on a terminal the words open the chat as its first message
// (issue 29, item 10).
func TestPromptWithoutFlag(t *testing.T) {
	t.Parallel()
	sc := script(t, `{"turns":[{"match":"question from the pipe","chunks":[{"text":"PIPED-ANSWER"}]},
		{"match":"fix the tests","chunks":[{"text":"WORDS-ANSWER"}]}],"fallback":"error"}`)
	tests := []struct {
		name  string
		args  []string
		stdin *string
		want  string
	}{
		{"piped, no -p", nil, strPtr("question from the pipe\n"), "PIPED-ANSWER"},
		{"words", []string{"fix", "the", "tests"}, nil, "WORDS-ANSWER"},
		{"words and a pipe", []string{"fix", "the", "tests"}, strPtr("and the pipe\n"), "WORDS-ANSWER"},
	}
	for _, tt := range tests {
		cmd := exec.Command(companionBin(t), append([]string{"--script", sc}, tt.args...)...)
		cmd.Env, cmd.Dir = env(t), workspace(t, nil)
		if tt.stdin != nil {
			cmd.Stdin = strings.NewReader(*tt.stdin)
		}
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), tt.want) {
			t.Errorf("%s: %v\n%s", tt.name, err, out)
		}
	}
	it := iaStart(t, `{"turns":[{"match":"fix the tests","chunks":[{"text":"FIRST-MESSAGE-ANSWER"}]}]}`, "fix the tests")
	it.iaExpect("FIRST-MESSAGE-ANSWER")
	it.iaExpect("> ")
	it.iaType("\x04")
	if code := it.iaExit(); code != 0 {
		t.Errorf("exit code = %d", code)
	}
}

// TestGeminiFlags: -v and --version work after other flags, and --acp /
// --experimental-acp serve ACP, so an editor configured for Gemini CLI
// can start companion instead (issue 29, item 12).
func TestGeminiFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-v"}, {"-m", "x", "--version"}, {"-y", "-v"}} {
		out, err := exec.Command(companionBin(t), args...).CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "companion ") {
			t.Errorf("%q: %v %s", args, err, out)
		}
	}
	for _, flag := range []string{"--acp", "--experimental-acp"} {
		cmd := exec.Command(companionBin(t), flag)
		cmd.Env = env(t)
		cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}` + "\n")
		out, err := cmd.Output()
		if err != nil || !strings.Contains(string(out), `"protocolVersion":1`) || !strings.Contains(string(out), `"id":1`) {
			t.Errorf("%s: %v\n%s", flag, err, out)
		}
	}
}

// TestAtPathInPrompt: "@path" in a -p prompt (and a chat line) sends the
// file's content with the prompt, as Gemini CLI does (issue 29, item 9);
// a word naming no file stays text.
func TestAtPathInPrompt(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{"notes/plan.md": "CONTENT-OF-THE-PLAN"})
	sc := script(t, `{"turns":[{"match":"CONTENT-OF-THE-PLAN","chunks":[{"text":"SAW-THE-FILE"}]}]}`)
	o := runCompanion(t, runOpts{dir: ws, args: []string{"-p", "summarise @notes/plan.md for @nobody", "--script", sc}})
	if o.Code != 0 || !strings.Contains(o.Stdout, "SAW-THE-FILE") {
		t.Errorf("the file was not sent:\n%s", o)
	}
	it := iaStart(t, `{"turns":[{"match":"CONTENT-OF-THE-CHAT-FILE","chunks":[{"text":"CHAT-SAW-IT"}]}]}`)
	os.WriteFile(filepath.Join(it.dir, "c.txt"), []byte("CONTENT-OF-THE-CHAT-FILE"), 0o644)
	it.iaExpect("> ")
	it.iaType("read @c.txt\n")
	it.iaExpect("CHAT-SAW-IT")
	it.iaType("\x04")
	it.iaExit()
}
