package chat

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"

	"companion/internal/testkit/testio"

	"companion/agent"
	"companion/tools"
)

// shellQuestion is a question like the agent asks about a shell command.
func shellQuestion() agent.Question {
	return agent.Question{CallID: "c1", Tool: "run_shell_command", Title: "touch a.txt",
		Confirm: &tools.Confirmation{Type: tools.ConfirmExec, Command: "touch a.txt"},
		Options: []agent.Option{
			{ID: agent.ProceedOnce, Label: "Allow this time", Kind: agent.AllowOnce},
			{ID: agent.ProceedAlways, Label: "Allow touch for this session", Kind: agent.AllowAlways},
			{ID: agent.ProceedAlwaysSave, Label: "Allow touch in this project", Kind: agent.AllowAlways},
			{ID: agent.RejectOnceID, Label: "Reject", Kind: agent.RejectOnce},
			{ID: agent.RejectAlwaysOption, Label: "Reject for this session", Kind: agent.RejectAlways},
		}}
}

func TestPick(t *testing.T) {
	q := shellQuestion()
	keys := optionKeys(q.Options)
	if got := strings.Join(keys, ","); got != "y,a,,n," {
		t.Fatalf("keys = %q", got)
	}
	tests := []struct {
		in   string
		want string
	}{
		{"y", agent.ProceedOnce}, {" Yes ", agent.ProceedOnce}, {"a", agent.ProceedAlways}, {"always", agent.ProceedAlways},
		{"3", agent.ProceedAlwaysSave}, {"n", agent.RejectOnceID}, {"NO", agent.RejectOnceID}, {"5", agent.RejectAlwaysOption},
		{"", ""}, {"0", ""}, {"6", ""}, {"maybe", ""},
	}
	for _, tt := range tests {
		i := pick(tt.in, keys, len(q.Options))
		got := ""
		if i >= 0 {
			got = q.Options[i].ID
		}
		if got != tt.want {
			t.Errorf("pick(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAsk: the question shows the command and every option; a bad answer
// asks again; end of input and Ctrl-C (the turn's context) cancel.
func TestAsk(t *testing.T) {
	var out testio.Buffer
	lines := make(chan string, 3)
	flushed := false
	a := &asker{out: &printer{w: &out, atStart: true}, lines: lines, flush: func() { flushed = true }}
	lines <- "y" // typed ahead, before the question: dropped
	go func() {
		for !strings.Contains(out.String(), "answer [") {
			runtime.Gosched() // the question is on screen: answers from here on count
		}
		lines <- "perhaps"
		lines <- "a"
	}()
	ans, err := a.Ask(context.Background(), shellQuestion())
	if !flushed {
		t.Error("the terminal's typed-ahead input was not flushed")
	}
	if err != nil || ans.OptionID != agent.ProceedAlways {
		t.Fatalf("Ask = %+v, %v", ans, err)
	}
	for _, want := range []string{"? Allow touch a.txt?", "$ touch a.txt", "1) Allow this time [y]", "3) Allow touch in this project\n",
		"4) Reject [n]", "answer [y/a/n]: ", "Answer with y/a/n or an option's number."} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the question lacks %q:\n%s", want, out.String())
		}
	}
	close(lines)
	if ans, err := a.Ask(context.Background(), shellQuestion()); err != nil || !ans.Cancelled {
		t.Errorf("Ask at end of input = %+v, %v", ans, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a.lines = make(chan string)
	if ans, err := a.Ask(ctx, shellQuestion()); err != nil || !ans.Cancelled {
		t.Errorf("Ask after Ctrl-C = %+v, %v", ans, err)
	}
}

// TestPrinter: the answer streams as it comes, tool calls and notices get
// lines of their own, and a turn ends on a fresh line.
func TestPrinter(t *testing.T) {
	var out bytes.Buffer
	p := &printer{w: &out, atStart: true}
	ctx := context.Background()
	for _, ev := range []agent.Event{
		agent.MessageChunk{Text: "Let me "}, agent.MessageChunk{Text: "look."},
		agent.ToolCallStarted{ID: "1", Title: "Read a.txt"},
		agent.ToolCallUpdated{ID: "1", Status: agent.ToolInProgress},
		agent.ToolCallUpdated{ID: "1", Status: agent.ToolCompleted},
		agent.ToolCallStarted{ID: "2", Title: "rm b"},
		agent.ToolCallUpdated{ID: "2", Status: agent.ToolFailed, Text: "refused\nmore"},
		agent.MessageChunk{Text: "Done."},
		agent.Notice{Level: "warning", Text: "an MCP server failed"},
		agent.ThoughtChunk{Text: "hidden"},
	} {
		p.Emit(ctx, ev)
	}
	p.turnEnd(agent.Cancelled, nil)
	p.prompt()
	want := "Let me look.\n● Read a.txt\n  ✓ done\n● rm b\n  ✗ refused\nDone.\ncompanion: an MCP server failed\n(cancelled)\n> "
	if out.String() != want {
		t.Errorf("printed:\n%q\nwant:\n%q", out.String(), want)
	}
}

// TestCommandList: a lone "/" lists the session's commands with their
// argument hints, and the chat's own /quit.
func TestCommandList(t *testing.T) {
	got := commandList([]agent.Command{{Name: "help", Description: "Show help"}, {Name: "model", Description: "Switch", Hint: "model name"}})
	for _, want := range []string{"\n  /help  Show help", "\n  /model <model name>  Switch", "\n  /quit  "} {
		if !strings.Contains(got, want) {
			t.Errorf("list lacks %q:\n%s", want, got)
		}
	}
}

// TestQuestionShowsInfoDetail: a plain question (a server's sampling
// request, a fetch) shows what it would do, line by line, before the
// options.
func TestQuestionShowsInfoDetail(t *testing.T) {
	q := agent.Question{Title: "Sampling by MCP server notes",
		Confirm: &tools.Confirmation{Type: tools.ConfirmInfo, Prompt: "System prompt:\n> be brief\nMax tokens: 50"},
		Options: []agent.Option{{ID: agent.ProceedOnce, Label: "Allow this time", Kind: agent.AllowOnce}}}
	got := questionText(q, optionKeys(q.Options))
	for _, want := range []string{"\n    System prompt:\n    > be brief\n    Max tokens: 50\n  1) Allow this time"} {
		if !strings.Contains(got, want) {
			t.Errorf("question lacks %q:\n%s", want, got)
		}
	}
}
