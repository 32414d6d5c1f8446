package textproto

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"companion/agent/model"
)

// counter returns an id generator yielding call_1, call_2, ...
func counter() func() string {
	n := 0
	return func() string {
		n++
		return fmt.Sprintf("call_%d", n)
	}
}

func text(s string) model.Part    { return model.Part{Text: s} }
func thought(s string) model.Part { return model.Part{Text: s, Thought: true} }

func fcall(id, name, args string) model.Part {
	var a map[string]any
	if err := json.Unmarshal([]byte(args), &a); err != nil {
		panic(err)
	}
	return model.Part{FunctionCall: &model.FunctionCall{ID: id, Name: name, Args: a}}
}

// merge joins adjacent text parts of the same kind, so outputs that differ
// only in how text was split compare equal.
func merge(parts []model.Part) []model.Part {
	var out []model.Part
	for _, p := range parts {
		if n := len(out); n > 0 && p.FunctionCall == nil && out[n-1].FunctionCall == nil && out[n-1].Thought == p.Thought {
			out[n-1].Text += p.Text
			continue
		}
		out = append(out, p)
	}
	return out
}

// run feeds pieces to a new parser and returns every part it made.
func run(calls bool, pieces ...string) []model.Part {
	p := newParser(calls, counter())
	var out []model.Part
	for _, s := range pieces {
		out = append(out, p.feed(s)...)
	}
	return append(out, p.flush()...)
}

const readCall = "```tool_call\n{\"name\": \"read_file\", \"arguments\": {\"file_path\": \"a.go\"}}\n```"

// parseCase is one scripted model output and the parts it must become.
type parseCase struct {
	name  string
	in    string
	calls bool
	want  []model.Part
}

// parseCases are the outputs TestParse and TestParseEverySplit feed.
func parseCases() []parseCase {
	return []parseCase{
		{"plain text", "Hello, world.\nNo calls < here > `code` and ``` fences ```.", true,
			[]model.Part{text("Hello, world.\nNo calls < here > `code` and ``` fences ```.")}},
		{"one call", readCall, true,
			[]model.Part{fcall("call_1", "read_file", `{"file_path":"a.go"}`)}},
		{"two calls", readCall + "\n\n```tool_call\n{\"name\": \"glob\", \"arguments\": {\"pattern\": \"*.go\"}}\n```\n", true,
			[]model.Part{fcall("call_1", "read_file", `{"file_path":"a.go"}`), fcall("call_2", "glob", `{"pattern":"*.go"}`)}},
		{"call between texts", "Let me look.\n\n" + readCall + "\nThen more.", true,
			[]model.Part{text("Let me look.\n\n"), fcall("call_1", "read_file", `{"file_path":"a.go"}`), text("Then more.")}},
		{"think block", "<think>Plan: read a.go.\nThen answer.</think>\n\nThe answer.", true,
			[]model.Part{thought("Plan: read a.go.\nThen answer."), text("The answer.")}},
		{"thinking block then call", "<thinking>hm</thinking>" + readCall, true,
			[]model.Part{thought("hm"), fcall("call_1", "read_file", `{"file_path":"a.go"}`)}},
		{"json fence call", "```json\n{\"name\":\"grep\",\"arguments\":{\"pattern\":\"x\"}}\n```", true,
			[]model.Part{fcall("call_1", "grep", `{"pattern":"x"}`)}},
		{"json fence that is no call", "Example:\n```json\n{\"name\": \"Bob\", \"age\": 3}\n```\nDone.", true,
			[]model.Part{text("Example:\n```json\n{\"name\": \"Bob\", \"age\": 3}\n```\nDone.")}},
		{"json fence that is no JSON", "```json\n{ not json\n```", true,
			[]model.Part{text("```json\n{ not json\n```")}},
		{"inline tag", "Sure. <tool_call>{\"name\":\"ls\",\"arguments\":{}}</tool_call>", true,
			[]model.Part{text("Sure. "), fcall("call_1", "ls", `{}`)}},
		{"malformed JSON passes through with a note", "```tool_call\n{\"name\": \"x\", \"arguments\": {\"a\": }}\n```\n", true,
			[]model.Part{text("```tool_call\n{\"name\": \"x\", \"arguments\": {\"a\": }}\n```" +
				"\n[This tool call was not run: its JSON is invalid (invalid character '}' looking for beginning of value). Write it again as valid JSON in a tool_call block.]\n")}},
		{"call without a name", "<tool_call>{\"arguments\":{}}</tool_call>", true,
			[]model.Part{text("<tool_call>{\"arguments\":{}}</tool_call>\n[This tool call was not run: it has no \"name\". Write it again as valid JSON in a tool_call block.]\n")}},
		{"unknown tool is still a call", "```tool_call\n{\"name\":\"no_such_tool\",\"arguments\":{\"q\":1}}\n```", true,
			[]model.Part{fcall("call_1", "no_such_tool", `{"q":1}`)}},
		{"fences and closers inside JSON strings", "```tool_call\n{\"name\":\"write_file\",\"arguments\":{\"content\":\"```go\\nx := \\\"```\\\"\\n```\\n</tool_call>\"}}\n```", true,
			[]model.Part{fcall("call_1", "write_file", `{"content":"`+"```go\\nx := \\\"```\\\"\\n```\\n</tool_call>"+`"}`)}},
		{"pretty-printed call, same-line closer", "```tool_call\n{\n  \"name\": \"ls\",\n  \"arguments\": {\n    \"path\": \"src\"\n  }\n}```ok", true,
			[]model.Part{fcall("call_1", "ls", `{"path":"src"}`), text("ok")}},
		{"other fence languages are text", "```jsonl\n{\"name\":\"x\",\"arguments\":{}}\n```\n```tool_calls\n```", true,
			[]model.Part{text("```jsonl\n{\"name\":\"x\",\"arguments\":{}}\n```\n```tool_calls\n```")}},
		{"array of calls, arguments as a string, args key", "```tool_call\n[{\"name\":\"a\",\"arguments\":\"{\\\"x\\\": 1}\"}, {\"name\":\"b\",\"args\":{\"y\":true}}]\n```", true,
			[]model.Part{fcall("call_1", "a", `{"x":1}`), fcall("call_2", "b", `{"y":true}`)}},
		{"no arguments", "```tool_call\n{\"name\":\"now\"}\n```", true,
			[]model.Part{fcall("call_1", "now", `{}`)}},
		{"arguments not an object", "```tool_call\n{\"name\":\"x\",\"arguments\":[1]}\n```", true,
			[]model.Part{text("```tool_call\n{\"name\":\"x\",\"arguments\":[1]}\n```\n[This tool call was not run: its \"arguments\" are not a JSON object. Write it again as valid JSON in a tool_call block.]\n")}},
		{"unclosed call at the end (stop sequence)", "Reading.\n```tool_call\n{\"name\":\"ls\",\"arguments\":{}}\n", true,
			[]model.Part{text("Reading.\n"), fcall("call_1", "ls", `{}`)}},
		{"call cut off inside its closer", "```tool_call\n{\"name\":\"ls\",\"arguments\":{}}\n``", true,
			[]model.Part{fcall("call_1", "ls", `{}`)}},
		{"unclosed broken call at the end", "```tool_call\n{\"name\":\"ls\",\"argu", true,
			[]model.Part{text("```tool_call\n{\"name\":\"ls\",\"argu\n[This tool call was not run: its JSON is invalid (unexpected EOF). Write it again as valid JSON in a tool_call block.]\n")}},
		{"unclosed think at the end", "<think>still thinking", true,
			[]model.Part{thought("still thinking")}},
		{"partial opener at the end is text", "see ```tool", true,
			[]model.Part{text("see ```tool")}},
		{"calls off: blocks stay text, thoughts parsed", "<think>t</think>" + readCall, false,
			[]model.Part{thought("t"), text(readCall)}},
		{"unicode", "héllo ✓ <think>ü 思考</think>→ done", true,
			[]model.Part{text("héllo ✓ "), thought("ü 思考"), text("→ done")}},
	}
}

func TestParse(t *testing.T) {
	for _, tt := range parseCases() {
		t.Run(tt.name, func(t *testing.T) {
			if got := merge(run(tt.calls, tt.in)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("whole input:\n got %s\nwant %s", show(got), show(tt.want))
			}
		})
	}
}

func TestParseEverySplit(t *testing.T) {
	for _, tt := range parseCases() {
		t.Run(tt.name, func(t *testing.T) {
			for i := 0; i <= len(tt.in); i++ {
				if got := merge(run(tt.calls, tt.in[:i], tt.in[i:])); !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("split at %d (%q | %q):\n got %s\nwant %s", i, tt.in[:i], tt.in[i:], show(got), show(tt.want))
				}
			}
			pieces := make([]string, len(tt.in))
			for i := 0; i < len(tt.in); i++ {
				pieces[i] = tt.in[i : i+1]
			}
			if got := merge(run(tt.calls, pieces...)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("byte by byte:\n got %s\nwant %s", show(got), show(tt.want))
			}
		})
	}
}

func TestParseStreamsPromptly(t *testing.T) {
	p := newParser(true, counter())
	steps := []struct {
		in   string
		want []model.Part
	}{
		{"Hello wor", []model.Part{text("Hello wor")}},
		{"ld <too", []model.Part{text("ld ")}},
		{"ls> and `", []model.Part{text("<tools> and ")}},
		{"``tool_ca", nil},
		{"ll\n{\"name\":\"ls\",", nil},
		{"\"arguments\":{}}\n``", nil},
		{"`\nAfter <think>th", []model.Part{fcall("call_1", "ls", `{}`), text("After "), thought("th")}},
		{"ought</thi", []model.Part{thought("ought")}},
		{"nk>\n", nil},
	}
	for i, s := range steps {
		if got := p.feed(s.in); !reflect.DeepEqual(got, s.want) {
			t.Errorf("step %d (%q):\n got %s\nwant %s", i, s.in, show(got), show(s.want))
		}
	}
	if got := p.flush(); got != nil {
		t.Errorf("flush = %s", show(got))
	}
}

// show renders parts for failure messages.
func show(parts []model.Part) string {
	var b strings.Builder
	for _, p := range parts {
		switch {
		case p.FunctionCall != nil:
			args, _ := json.Marshal(p.FunctionCall.Args)
			fmt.Fprintf(&b, "[call %s %s %s]", p.FunctionCall.ID, p.FunctionCall.Name, args)
		case p.Thought:
			fmt.Fprintf(&b, "[thought %q]", p.Text)
		default:
			fmt.Fprintf(&b, "[text %q]", p.Text)
		}
	}
	return b.String()
}

// FuzzParse checks that no output makes the parser panic, and that how the
// output is split into chunks never changes the parts it becomes.
func FuzzParse(f *testing.F) {
	for _, tt := range parseCases() {
		f.Add(tt.in, len(tt.in)/2)
	}
	f.Fuzz(func(t *testing.T, in string, split int) {
		if split < 0 || split > len(in) {
			split = len(in) / 2
		}
		whole := merge(run(true, in))
		if got := merge(run(true, in[:split], in[split:])); !reflect.DeepEqual(got, whole) {
			t.Errorf("split at %d:\n got %s\nwant %s", split, show(got), show(whole))
		}
	})
}
