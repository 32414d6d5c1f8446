package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"companion/agent"
	"companion/agent/model"
	"companion/internal/testkit/testio"
	"companion/tools"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// turnEvents is one prompt's events: thinking and text, a tool call that
// runs, a refused one, then the answer.
func turnEvents() []agent.Event {
	return []agent.Event{
		agent.ThoughtChunk{Text: "Look first."},
		agent.MessageChunk{Text: "Let me "},
		agent.MessageChunk{Text: "read it."},
		agent.ToolCallStarted{ID: "call_1", Name: "read_file", Title: "Read a.txt", Kind: tools.KindRead, Input: json.RawMessage(`{"file_path":"a.txt"}`)},
		agent.ToolCallUpdated{ID: "call_1", Status: agent.ToolInProgress},
		agent.ToolCallUpdated{ID: "call_1", Status: agent.ToolCompleted, Text: "hello"},
		agent.ToolCallStarted{ID: "call_2", Name: "run_shell_command", Title: "rm -rf /", Kind: tools.KindExecute, Input: json.RawMessage(`{"command":"rm -rf /"}`)},
		agent.ToolCallUpdated{ID: "call_2", Status: agent.ToolFailed, Text: "This call needs the user's approval.", Refused: true},
		agent.MessageChunk{Text: "It says hello."},
		agent.ModelChanged{Name: "m2", Previous: "m1", Reason: "quota"},
	}
}

var volatile = regexp.MustCompile(`"(uuid|duration_ms|duration_api_ms|timestamp)":("[^"]*"|\d+)`)

func TestReporterGolden(t *testing.T) {
	tests := []struct {
		format  string
		partial bool
		golden  string
	}{
		{formatStream, true, "stream-partial.golden"},
		{formatStream, false, "stream.golden"},
		{formatJSON, false, "json.golden"},
		{formatText, false, "text.golden"},
		{formatGeminiStream, false, "gemini-stream.golden"},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			r := &reporter{format: tt.format, partial: tt.partial, lines: &lineWriter{w: &stdout}, stdout: &stdout, stderr: &stderr,
				session: "sess_0123456789abcdef", model: func() string { return "m1" }}
			r.system("init", map[string]any{"model": "m1"})
			r.userPrompt("What does a.txt say?")
			for _, ev := range turnEvents() {
				r.Emit(context.Background(), ev)
			}
			before := agent.Totals{Requests: 1, Tokens: model.Usage{PromptTokens: 10}}
			after := agent.Totals{Requests: 3, Tokens: model.Usage{PromptTokens: 110, OutputTokens: 20, ThoughtTokens: 5}}
			beforeModels := map[string]agent.ModelUse{"m1": {Requests: 1, Tokens: model.Usage{PromptTokens: 10}}}
			afterModels := map[string]agent.ModelUse{"m1": {Requests: 2, Tokens: model.Usage{PromptTokens: 60, OutputTokens: 5, CachedTokens: 8}},
				"m2": {Requests: 1, Tokens: model.Usage{PromptTokens: 50, OutputTokens: 15, ThoughtTokens: 5, TotalTokens: 70}}}
			res := r.finish(outcome{stop: agent.EndTurn, started: time.Now(), before: before, after: after,
				beforeModels: beforeModels, afterModels: afterModels})
			if res.NumTurns != 2 || res.Usage.InputTokens != 100 || len(res.PermissionDenials) != 1 || res.Result != "Let me read it.\n\nIt says hello." {
				t.Errorf("result = %+v", res)
			}
			got := volatile.ReplaceAll(append(stdout.Bytes(), append([]byte("--- stderr\n"), stderr.Bytes()...)...), []byte(`"$1":"X"`))
			testio.Golden(t, filepath.Join("testdata", tt.golden), got, *update)
		})
	}
}

func TestOutcome(t *testing.T) {
	tests := []struct {
		o       outcome
		subtype string
		failed  bool
	}{
		{outcome{stop: agent.EndTurn}, resultSuccess, false},
		{outcome{stop: agent.MaxTokens}, resultSuccess, false},
		{outcome{stop: agent.MaxTurnRequests}, resultMaxTurns, true},
		{outcome{stop: agent.Cancelled}, resultInterrupted, false},
		{outcome{stop: agent.Refusal}, resultSuccess, true},
		{outcome{err: os.ErrClosed}, resultError, true},
	}
	for _, tt := range tests {
		if tt.o.subtype() != tt.subtype || tt.o.failed() != tt.failed {
			t.Errorf("%+v: subtype %q failed %v, want %q %v", tt.o, tt.o.subtype(), tt.o.failed(), tt.subtype, tt.failed)
		}
	}
}
