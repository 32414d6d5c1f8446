package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"companion/internal/testkit/sdktest"
)

// runGuard bounds every `companion run` so a hang fails instead of
// blocking the suite; it is no timing assertion.
const runGuard = 90 * time.Second

// runOpts describe one `companion run`: env defaults to env(t), dir to a
// fresh workspace; interruptWhen is a file in dir whose appearance sends
// SIGINT (a tool of the script touched it: the turn is running).
type runOpts struct {
	args          []string
	stdin         *string
	env           []string
	dir           string
	interruptWhen string
	signal        os.Signal
}

func strPtr(s string) *string { return &s }

// runCompanion runs `companion run` with o and waits for it to exit: the
// real binary on purpose, for its argv, exit code, stderr and signals.
func runCompanion(t *testing.T, o runOpts) sdktest.RunOutput {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runGuard)
	defer cancel()
	ro := sdktest.RunOptions{Bin: companionBin(t), Args: o.args, Env: o.env, Dir: o.dir, Stdin: o.stdin, Signal: o.signal}
	if ro.Env == nil {
		ro.Env = env(t)
	}
	if ro.Dir == "" {
		ro.Dir = workspace(t, nil)
	}
	if o.interruptWhen != "" {
		ro.InterruptWhen = filepath.Join(ro.Dir, o.interruptWhen)
	}
	out, err := sdktest.Run(ctx, ro)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out
}

// streamLines parses stream-json output; every line must be a message.
func streamLines(t *testing.T, stdout string) []sdktest.Message {
	t.Helper()
	msgs, err := sdktest.ParseStream(stdout)
	if err != nil {
		t.Error(err)
	}
	return msgs
}

// jsonResult decodes the json output: exactly one object, nothing else.
func jsonResult(t *testing.T, o sdktest.RunOutput) sdktest.Result {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(o.Stdout))
	var r sdktest.Result
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("json output does not decode: %v\n%s", err, o)
	}
	if dec.More() {
		t.Errorf("json output has more than one value: %s", o.Stdout)
	}
	if r.Type != "result" {
		t.Errorf("json output type = %q, want result", r.Type)
	}
	return r
}

// lastResult checks that a stream-json output ends with a result and
// returns it.
func lastResult(t *testing.T, msgs []sdktest.Message) sdktest.Result {
	t.Helper()
	if len(msgs) == 0 || msgs[len(msgs)-1].Type != "result" {
		t.Fatalf("stream-json output does not end with a result: %q", sdktest.Types(msgs))
	}
	r, err := msgs[len(msgs)-1].Result()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A read_file call then an answer: the "ok" script of the format table.
const okScript = `{"turns":[
	{"chunks":[{"text":"Reading."},{"functionCall":{"name":"read_file","args":{"file_path":"notes.txt"}}}],"usage":{"promptTokens":10,"outputTokens":5}},
	{"match":"remember the milk","chunks":[{"text":"The notes say: "},{"text":"remember the milk."}],"usage":{"promptTokens":30,"outputTokens":7}}],
	"fallback":"error"}`

const okAnswer = "The notes say: remember the milk."

// TestRunOutputFormats runs the same scripted outcomes in every output
// format and checks the exit code and the exact shape of stdout.
func TestRunOutputFormats(t *testing.T) {
	t.Parallel()
	outcomes := []struct {
		name, script string
		args         []string
		interrupt    string // a file whose appearance sends signal (default SIGINT)
		signal       os.Signal
		code         int
		check        func(t *testing.T, format string, o sdktest.RunOutput)
	}{
		{name: "ok", script: okScript, code: 0, check: checkOK},
		{name: "model error", code: 1, check: checkModelError,
			script: `{"turns":[{"status":400,"message":"the script rejects this request"}],"fallback":"error"}`},
		{name: "max turns", code: 1, args: []string{"--max-turns", "1"}, check: checkMaxTurns,
			script: `{"turns":[{"times":5,"chunks":[{"functionCall":{"name":"list_directory","args":{"dir_path":"."}}}]}],"fallback":"error"}`},
		{name: "interrupted", code: 130, interrupt: "started", args: []string{"--approval-mode", "yolo"}, check: checkInterrupted,
			script: `{"turns":[{"chunks":[` + shellCall("touch started") + `]},{"chunks":[{"text":"working"}],"hang":true}]}`},
		{name: "terminated", code: 130, interrupt: "started", signal: syscall.SIGTERM, args: []string{"--approval-mode", "yolo"}, check: checkInterrupted,
			script: `{"turns":[{"chunks":[` + shellCall("touch started") + `]},{"chunks":[{"text":"working"}],"hang":true}]}`},
	}
	for _, format := range []string{"text", "json", "stream-json"} {
		for _, oc := range outcomes {
			t.Run(format+"/"+oc.name, func(t *testing.T) {
				t.Parallel()
				ws := workspace(t, map[string]string{"notes.txt": "remember the milk\n"})
				args := append([]string{"-p", "What do my notes say?", "--output-format", format, "--script", script(t, oc.script)}, oc.args...)
				o := runCompanion(t, runOpts{args: args, dir: ws, interruptWhen: oc.interrupt, signal: oc.signal})
				if o.Code != oc.code {
					t.Fatalf("exit code %d, want %d\n%s", o.Code, oc.code, o)
				}
				oc.check(t, format, o)
			})
		}
	}
}

func checkOK(t *testing.T, format string, o sdktest.RunOutput) {
	switch format {
	case "text":
		if got := strings.Join(strings.Fields(o.Stdout), " "); got != "Reading.The notes say: remember the milk." && got != "Reading. The notes say: remember the milk." {
			t.Errorf("text stdout = %q, want the model's text only", o.Stdout)
		}
		if !strings.Contains(o.Stderr, "read_file") && !strings.Contains(o.Stderr, "notes.txt") {
			t.Errorf("text stderr does not report the tool call:\n%s", o.Stderr)
		}
	case "json":
		r := jsonResult(t, o)
		if r.Subtype != "success" || r.IsError || r.StopReason != "end_turn" || !strings.HasSuffix(r.Result, okAnswer) {
			t.Errorf("json result = %+v", r)
		}
		if !strings.HasPrefix(r.SessionID, "sess_") || r.NumTurns != 2 || len(r.Errors) != 0 || r.PermissionDenials == nil || len(r.PermissionDenials) != 0 {
			t.Errorf("json session_id %q, num_turns %d, errors %s, permission_denials %v", r.SessionID, r.NumTurns, r.ErrorText(), r.PermissionDenials)
		}
		if r.Usage == nil || r.Usage.InputTokens != 40 || r.Usage.OutputTokens != 12 {
			t.Errorf("json usage = %+v, want input 40 output 12 (both requests)", r.Usage)
		}
		if len(r.ToolCalls) != 1 {
			t.Fatalf("json tool_calls = %+v", r.ToolCalls)
		}
		c := r.ToolCalls[0]
		if c.Name != "read_file" || c.Input["file_path"] != "notes.txt" || c.Status != "completed" || c.IsError || !strings.Contains(c.Output, "remember the milk") || c.ID == "" {
			t.Errorf("json tool call = %+v", c)
		}
		if !strings.Contains(o.Stdout, `"duration_ms":`) || !strings.Contains(o.Stdout, `"duration_api_ms":`) {
			t.Errorf("json output lacks durations: %s", o.Stdout)
		}
	case "stream-json":
		checkOKStream(t, streamLines(t, o.Stdout))
	}
}

// checkOKStream checks the stream of the "ok" script: init first, the
// tool_use, its tool_result, the answer, the result last.
func checkOKStream(t *testing.T, msgs []sdktest.Message) {
	t.Helper()
	if len(msgs) == 0 || !msgs[0].Is("system", "init") {
		t.Fatalf("stream does not start with system/init: %q", sdktest.Types(msgs))
	}
	init, _ := msgs[0].Init()
	if !slices.Contains(init.Tools, "read_file") || init.Model == "" || init.PermissionMode != "default" || init.Cwd == "" || init.Version == "" {
		t.Errorf("system/init = %s", msgs[0])
	}
	for _, m := range msgs {
		if m.SessionID != msgs[0].SessionID || m.UUID == "" {
			t.Errorf("message with another session_id or no uuid: %s", m)
		}
	}
	uses := sdktest.FindBlocks(msgs, "assistant", "tool_use")
	results := sdktest.FindBlocks(msgs, "user", "tool_result")
	if len(uses) != 1 || uses[0].Name != "read_file" || uses[0].Input["file_path"] != "notes.txt" || uses[0].ID == "" {
		t.Fatalf("tool_use blocks = %+v", uses)
	}
	if len(results) != 1 || results[0].ToolUseID != uses[0].ID || results[0].IsError || !strings.Contains(results[0].ContentText(), "remember the milk") {
		t.Errorf("tool_result blocks = %+v", results)
	}
	if text := sdktest.AssistantText(msgs); !strings.HasSuffix(text, okAnswer) {
		t.Errorf("assistant text = %q", text)
	}
	for _, m := range msgs {
		if c, _ := m.Chat(); m.Type == "assistant" && (c.Role != "assistant" || c.Model == "" || c.Type != "message" || c.ID == "" || c.StopReason == "" || c.Usage == nil) {
			t.Errorf("assistant message without id, type, role, model, stop_reason or usage: %s", m)
		}
	}
	r := lastResult(t, msgs)
	if r.Subtype != "success" || r.IsError || r.StopReason != "end_turn" || r.SessionID != msgs[0].SessionID || r.Usage == nil || r.Usage.InputTokens != 40 {
		t.Errorf("result = %s", msgs[len(msgs)-1])
	}
	if strings.Contains(msgs[len(msgs)-1].String(), `"tool_calls"`) {
		t.Errorf("stream-json result carries tool_calls: %s", msgs[len(msgs)-1])
	}
}

func checkModelError(t *testing.T, format string, o sdktest.RunOutput) {
	switch format {
	case "text":
		if strings.TrimSpace(o.Stdout) != "" {
			t.Errorf("text stdout = %q, want nothing", o.Stdout)
		}
		if !strings.Contains(o.Stderr, "the script rejects this request") && !strings.Contains(o.Stderr, "400") {
			t.Errorf("text stderr does not say what failed:\n%s", o.Stderr)
		}
	case "json":
		r := jsonResult(t, o)
		if !r.IsError || r.Subtype != "error_during_execution" || len(r.Errors) == 0 || !strings.Contains(r.ErrorText(), "400") && !strings.Contains(r.ErrorText(), "rejects") {
			t.Errorf("json result = %s", o.Stdout)
		}
	case "stream-json":
		msgs := streamLines(t, o.Stdout)
		r := lastResult(t, msgs)
		if !msgs[0].Is("system", "init") || !r.IsError || r.Subtype != "error_during_execution" || len(r.Errors) == 0 {
			t.Errorf("stream-json = %q, result %s", sdktest.Types(msgs), msgs[len(msgs)-1])
		}
	}
}

func checkMaxTurns(t *testing.T, format string, o sdktest.RunOutput) {
	switch format {
	case "text":
		if !strings.Contains(strings.ToLower(o.Stderr), "turn") {
			t.Errorf("text stderr does not mention the turn limit:\n%s", o.Stderr)
		}
	case "json":
		if r := jsonResult(t, o); r.Subtype != "error_max_turns" || !r.IsError || r.NumTurns != 1 || len(r.ToolCalls) != 1 {
			t.Errorf("json result = %s", o.Stdout)
		}
	case "stream-json":
		msgs := streamLines(t, o.Stdout)
		if r := lastResult(t, msgs); r.Subtype != "error_max_turns" || !r.IsError {
			t.Errorf("stream-json result = %s", msgs[len(msgs)-1])
		}
		if n := len(sdktest.FindBlocks(msgs, "assistant", "tool_use")); n != 1 {
			t.Errorf("%d tool_use blocks, want 1 (one model request)", n)
		}
	}
}

func checkInterrupted(t *testing.T, format string, o sdktest.RunOutput) {
	switch format {
	case "text":
		if strings.Contains(o.Stdout, "{") {
			t.Errorf("text stdout = %q", o.Stdout)
		}
	case "json":
		if r := jsonResult(t, o); r.StopReason != "cancelled" || r.Subtype != "error_interrupted" || len(r.ToolCalls) != 1 {
			t.Errorf("json result = %s", o.Stdout)
		}
	case "stream-json":
		msgs := streamLines(t, o.Stdout)
		if r := lastResult(t, msgs); r.StopReason != "cancelled" || r.Subtype != "error_interrupted" {
			t.Errorf("stream-json result = %s", msgs[len(msgs)-1])
		}
	}
}

// TestRunBadUsage: exit code 2, a message on stderr, nothing on stdout.
func TestRunBadUsage(t *testing.T) {
	t.Parallel()
	sc := `{"turns":[],"fallback":"echo"}`
	tests := []struct {
		name  string
		args  []string
		stdin *string
		want  string // in stderr
	}{
		{"unknown flag", []string{"-p", "hi", "--no-such-flag"}, nil, "no-such-flag"},
		{"no prompt, empty stdin", nil, strPtr(""), "prompt"},
		{"bad output format", []string{"-p", "hi", "--output-format", "yaml"}, nil, "yaml"},
		{"stream-json input without stream-json output", []string{"--input-format", "stream-json"}, strPtr(""), "stream-json"},
		{"stream-json input with json output", []string{"--input-format", "stream-json", "--output-format", "json"}, strPtr(""), "stream-json"},
		{"bad input format", []string{"-p", "hi", "--input-format", "xml"}, nil, "xml"},
		{"bad approval mode", []string{"-p", "hi", "--approval-mode", "sometimes"}, nil, "sometimes"},
		{"bad max turns", []string{"-p", "hi", "--max-turns", "many"}, nil, "max-turns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := runCompanion(t, runOpts{args: append(tt.args, "--script", script(t, sc)), stdin: tt.stdin})
			if o.Code != 2 || o.Stdout != "" || !strings.Contains(o.Stderr, tt.want) {
				t.Errorf("want exit 2, empty stdout, %q in stderr; got\n%s", tt.want, o)
			}
			if strings.Count(strings.TrimSpace(o.Stderr), "\n") > 40 {
				t.Errorf("stderr is not a short usage message:\n%s", o.Stderr)
			}
		})
	}
}

// TestRunPromptSources reads the prompt from stdin, and from -p with
// stdin appended after a blank line: the scripted turn only answers a
// request carrying the expected text.
func TestRunPromptSources(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, match string
		args        []string
		stdin       string
	}{
		{"stdin only", `What is in notes?`, nil, "What is in notes?\n"},
		{"-p and stdin", `Summarise this:\\n\\nline one\\nline two`, []string{"-p", "Summarise this:"}, "line one\nline two\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sc := script(t, `{"turns":[{"match":"`+tt.match+`","chunks":[{"text":"Prompt seen."}]}],"fallback":"error"}`)
			o := runCompanion(t, runOpts{args: append(tt.args, "--script", sc), stdin: strPtr(tt.stdin)})
			if o.Code != 0 || strings.TrimSpace(o.Stdout) != "Prompt seen." {
				t.Errorf("want exit 0 and the answer on stdout; got\n%s", o)
			}
		})
	}
}

// TestRunResume continues a stored session in a second process: its model
// request carries the first run's answer, and the session id is kept.
func TestRunResume(t *testing.T) {
	t.Parallel()
	e := env(t)
	ws := workspace(t, nil)
	first := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "First question", "--output-format", "json",
		"--script", script(t, `{"turns":[{"match":"First question","chunks":[{"text":"FIRST-ANSWER-42"}]}],"fallback":"error"}`)}})
	if first.Code != 0 {
		t.Fatalf("first run:\n%s", first)
	}
	id := jsonResult(t, first).SessionID
	second := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "Second question", "--output-format", "json", "--resume", id,
		"--script", script(t, `{"turns":[{"match":"FIRST-ANSWER-42","chunks":[{"text":"SECOND-ANSWER"}]}],"fallback":"error"}`)}})
	if second.Code != 0 {
		t.Fatalf("resumed run:\n%s", second)
	}
	if r := jsonResult(t, second); r.Result != "SECOND-ANSWER" || r.SessionID != id {
		t.Errorf("resumed result = %s, want SECOND-ANSWER in session %s", second.Stdout, id)
	}
	bad := runCompanion(t, runOpts{env: e, dir: ws, args: []string{"-p", "x", "--resume", "sess_does_not_exist", "--script", script(t, `{"turns":[]}`)}})
	if bad.Code != 1 || bad.Stderr == "" || strings.TrimSpace(bad.Stdout) != "" {
		t.Errorf("resume of an unknown session: want exit 1 and a message on stderr, got\n%s", bad)
	}
}

// writeScript has the model write out.txt, then finish.
const writeScript = `{"turns":[{"chunks":[{"functionCall":{"name":"write_file","args":{"file_path":"out.txt","content":"written\n"}}}]},
	{"chunks":[{"text":"done"}]}],"fallback":"error"}`

// TestRunApprovalMode: without a way to ask, a write is refused in the
// default and plan modes (the model is told and goes on) and allowed by
// auto-edit and yolo.
func TestRunApprovalMode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		mode    string
		written bool
	}{{"", false}, {"default", false}, {"plan", false}, {"auto-edit", true}, {"auto_edit", true}, {"yolo", true}}
	for _, tt := range tests {
		t.Run("mode="+tt.mode, func(t *testing.T) {
			t.Parallel()
			ws := workspace(t, nil)
			args := []string{"-p", "write it", "--output-format", "json", "--script", script(t, writeScript)}
			if tt.mode != "" {
				args = append(args, "--approval-mode", tt.mode)
			}
			o := runCompanion(t, runOpts{dir: ws, args: args})
			if o.Code != 0 {
				t.Fatalf("a refused tool must not fail the run:\n%s", o)
			}
			r := jsonResult(t, o)
			_, err := os.Stat(filepath.Join(ws, "out.txt"))
			if written := err == nil; written != tt.written {
				t.Errorf("out.txt written = %v, want %v\n%s", written, tt.written, o.Stdout)
			}
			if len(r.ToolCalls) != 1 || r.ToolCalls[0].IsError == tt.written || r.Result != "done" {
				t.Errorf("tool_calls = %+v, result %q", r.ToolCalls, r.Result)
			}
			if tt.mode != "plan" && (len(r.PermissionDenials) == 1) == tt.written {
				t.Errorf("permission_denials = %s", r.PermissionDenials)
			}
		})
	}
}

// TestRunAllowedTools allows `echo` through --allowed-tools (one flag,
// repeated, comma-separated); without it the call is refused.
func TestRunAllowedTools(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		allowed []string
		ran     bool
	}{
		{"no rule", nil, false},
		{"one rule", []string{"--allowed-tools", "run_shell_command(echo)"}, true},
		{"repeated", []string{"--allowed-tools", "read_file", "--allowed-tools", "run_shell_command(echo)"}, true},
		{"comma-separated", []string{"--allowed-tools", "read_file,run_shell_command(echo)"}, true},
		{"other command", []string{"--allowed-tools", "run_shell_command(ls)"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sc := script(t, `{"turns":[{"chunks":[`+shellCall("echo allowed-ran")+`]},{"chunks":[{"text":"done"}]}],"fallback":"error"}`)
			o := runCompanion(t, runOpts{args: append([]string{"-p", "run echo", "--output-format", "json", "--script", sc}, tt.allowed...)})
			if o.Code != 0 {
				t.Fatalf("run failed:\n%s", o)
			}
			r := jsonResult(t, o)
			if len(r.ToolCalls) != 1 {
				t.Fatalf("tool_calls = %+v", r.ToolCalls)
			}
			c := r.ToolCalls[0]
			if ran := !c.IsError && strings.Contains(c.Output, "allowed-ran"); ran != tt.ran {
				t.Errorf("echo ran = %v, want %v: %+v", ran, tt.ran, c)
			}
			if denied := len(r.PermissionDenials) > 0; denied == tt.ran {
				t.Errorf("permission_denials = %s", r.PermissionDenials)
			}
		})
	}
}

// streamEvent is the `event` of a stream_event line.
type streamEvent struct {
	Type  string `json:"type"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
	} `json:"delta"`
}

// TestRunPartialMessages: --include-partial-messages adds stream_event
// lines, each model answer's events framed by message_start and
// message_stop before its assistant message, whose deltas (text, thinking,
// tool input JSON) add up to that message.
func TestRunPartialMessages(t *testing.T) {
	t.Parallel()
	sc := `{"turns":[{"chunks":[{"thought":"Pondering."},{"text":"Hello, "},{"text":"partial world."},
		{"functionCall":{"name":"list_directory","args":{"dir_path":"."}}}]},{"chunks":[{"text":"Listed."}]}],"fallback":"error"}`
	for _, partial := range []bool{true, false} {
		args := []string{"-p", "hi", "--output-format", "stream-json", "--script", script(t, sc)}
		if partial {
			args = append(args, "--include-partial-messages")
		}
		o := runCompanion(t, runOpts{args: args})
		if o.Code != 0 {
			t.Fatalf("run failed:\n%s", o)
		}
		msgs := streamLines(t, o.Stdout)
		var kinds []string
		var text, thinking, input string
		for _, m := range msgs {
			switch m.Type {
			case "stream_event":
				var v struct{ Event streamEvent }
				m.Decode(&v)
				kinds = append(kinds, v.Event.Type)
				text += v.Event.Delta.Text
				thinking += v.Event.Delta.Thinking
				input += v.Event.Delta.PartialJSON
			case "assistant":
				kinds = append(kinds, "ASSISTANT")
			}
		}
		if !partial {
			if !slices.Equal(kinds, []string{"ASSISTANT", "ASSISTANT"}) {
				t.Errorf("without the flag: %q", kinds)
			}
			continue
		}
		if got := strings.Join(kinds, " "); strings.Count(got, "message_start") != 2 || !strings.HasSuffix(got, "message_stop ASSISTANT") ||
			!strings.Contains(got, "message_stop ASSISTANT message_start") || !strings.Contains(got, "content_block_start content_block_delta") {
			t.Errorf("stream events = %q", kinds)
		}
		var in map[string]any
		if text != "Hello, partial world.Listed." || thinking != "Pondering." || json.Unmarshal([]byte(input), &in) != nil || in["dir_path"] != "." {
			t.Errorf("deltas add up to text %q, thinking %q, tool input %q", text, thinking, input)
		}
	}
}

// TestRunTextStdoutIsTheAnswer: in text mode a hook's message is a warning
// for stderr, not part of the answer on stdout.
func TestRunTextStdoutIsTheAnswer(t *testing.T) {
	t.Parallel()
	hook := filepath.Join(t.TempDir(), "hook.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ncat >/dev/null\necho '{\"systemMessage\":\"HOOK-SAYS-HI\"}'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	settings, _ := json.Marshal(map[string]any{"hooks": map[string]any{"AfterTool": []any{map[string]any{"matcher": "run_shell_command", "command": hook}}}})
	sc := script(t, `{"turns":[{"chunks":[`+shellCall("echo hi")+`]},{"chunks":[{"text":"ok"}]}],"fallback":"error"}`)
	o := runCompanion(t, runOpts{env: withSettings(t, env(t), string(settings)), args: []string{"-p", "go", "--approval-mode", "yolo", "--script", sc}})
	if o.Code != 0 || strings.TrimSpace(o.Stdout) != "ok" || !strings.Contains(o.Stderr, "HOOK-SAYS-HI") {
		t.Errorf("want only the answer on stdout and the hook's message on stderr; got\n%s", o)
	}
}
