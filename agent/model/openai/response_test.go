package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"testing"

	"companion/agent/model"
	"companion/agent/model/internal/modeltest"
	"companion/internal/sse"
)

// feed decodes each event as the provider does and runs it through a
// streamState with numbered ids, returning every chunk including the end.
func feed(t *testing.T, events ...string) []*model.Chunk {
	t.Helper()
	n := 0
	st := newStreamState(func() string { n++; return fmt.Sprintf("gen_%d", n) }, slog.New(slog.DiscardHandler))
	var out []*model.Chunk
	for _, e := range events {
		var c chunk
		if err := json.Unmarshal([]byte(e), &c); err != nil {
			t.Fatalf("decoding %s: %v", e, err)
		}
		if chunk := st.add(&c); chunk != nil {
			out = append(out, chunk)
		}
	}
	return append(out, st.end())
}

// deltaEvent wraps a delta object in a chunk of choice 0.
func deltaEvent(d string) string {
	return `{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":` + d + `}]}`
}

func TestReasoningFields(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, delta, thought string }{
		{"reasoning_content", `{"reasoning_content":"think"}`, "think"},
		{"reasoning", `{"reasoning":"ponder"}`, "ponder"},
		{"both, read once", `{"reasoning_content":"once","reasoning":"once"}`, "once"},
		{"null first", `{"reasoning_content":null,"reasoning":"second"}`, "second"},
		{"escaped", `{"reasoning":"a \"b\"\nc \u00e9"}`, "a \"b\"\nc é"},
		{"not a string", `{"reasoning":{"effort":"high"}}`, ""},
	}
	for _, tt := range tests {
		chunks := feed(t, deltaEvent(tt.delta))
		if got := modeltest.Text(chunks, true); got != tt.thought {
			t.Errorf("%s: thought = %q, want %q", tt.name, got, tt.thought)
		}
	}
}

func TestToolCallAccumulation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		events []string
		want   []*model.FunctionCall
	}{
		{"split over deltas, ids missing", []string{
			deltaEvent(`{"tool_calls":[{"index":0,"function":{"name":"ls","arguments":""}}]}`),
			deltaEvent(`{"tool_calls":[{"index":1,"function":{"name":"cat","arguments":"{\"f\""}}]}`),
			deltaEvent(`{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}`),
			deltaEvent(`{"tool_calls":[{"index":1,"function":{"arguments":":\"a\"}"}}]}`),
		}, []*model.FunctionCall{{ID: "gen_1", Name: "ls", Args: map[string]any{}}, {ID: "gen_2", Name: "cat", Args: map[string]any{"f": "a"}}}},
		{"every call at index 0", []string{
			deltaEvent(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"ls","arguments":"{\"d\":\".\"}"}}]}`),
			deltaEvent(`{"tool_calls":[{"index":0,"id":"b","function":{"name":"ls","arguments":"{\"d\":\"x\"}"}}]}`),
		}, []*model.FunctionCall{{ID: "a", Name: "ls", Args: map[string]any{"d": "."}}, {ID: "b", Name: "ls", Args: map[string]any{"d": "x"}}}},
		{"double-encoded arguments", []string{
			deltaEvent(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"ls","arguments":"\"{\\\"d\\\":1}\""}}]}`),
		}, []*model.FunctionCall{{ID: "c", Name: "ls", Args: map[string]any{"d": 1.0}}}},
		{"invalid arguments", []string{
			deltaEvent(`{"tool_calls":[{"index":0,"id":"c","function":{"name":"ls","arguments":"{\"d\":"}}]}`),
		}, []*model.FunctionCall{{ID: "c", Name: "ls"}}},
		{"no name", []string{
			deltaEvent(`{"tool_calls":[{"index":0,"id":"c","function":{"arguments":"{}"}}]}`),
		}, nil},
	}
	for _, tt := range tests {
		chunks := feed(t, tt.events...)
		if got := modeltest.Calls(chunks); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: calls = %s, want %s", tt.name, show(got), show(tt.want))
		}
		if len(chunks) != 1 {
			t.Errorf("%s: calls were emitted before the end: %d chunks", tt.name, len(chunks))
		}
	}
}

func TestFinishFlushesCalls(t *testing.T) {
	t.Parallel()
	chunks := feed(t,
		deltaEvent(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"ls","arguments":"{}"}}]}`),
		`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
		`{"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":7,"total_tokens":16,`+
			`"completion_tokens_details":{"reasoning_tokens":3},"prompt_tokens_details":{"cached_tokens":4}}}`,
	)
	if len(chunks) != 2 || len(modeltest.Calls(chunks[:1])) != 1 {
		t.Fatalf("chunks = %s, want the call on finish_reason, then the end", show(modeltest.Calls(chunks)))
	}
	end := chunks[1]
	want := model.Usage{PromptTokens: 9, OutputTokens: 4, ThoughtTokens: 3, CachedTokens: 4, TotalTokens: 16}
	if end.FinishReason != model.FinishStop || end.Usage == nil || *end.Usage != want || len(end.Parts) != 0 {
		t.Errorf("end = %+v usage %+v, want stop with %+v", end, end.Usage, want)
	}
}

func TestOtherChoicesIgnored(t *testing.T) {
	t.Parallel()
	chunks := feed(t, `{"choices":[{"index":1,"delta":{"content":"other"}},{"index":0,"delta":{"content":"mine","refusal":" no"}}]}`)
	if got := modeltest.Text(chunks, false); got != "mine no" {
		t.Errorf("text = %q, want choice 0's content and refusal", got)
	}
}

// show prints calls readably in failures.
func show(calls []*model.FunctionCall) string {
	data, _ := json.Marshal(calls)
	return string(data)
}

// FuzzDecodeEvent feeds any event data through the decoding and the
// stream state: nothing may panic, an error event is always an
// *eventError, and a chunk that decodes always ends in a final chunk.
func FuzzDecodeEvent(f *testing.F) {
	for _, seed := range []string{
		deltaEvent(`{"content":"hi","reasoning":"r"}`),
		deltaEvent(`{"tool_calls":[{"index":0,"id":"a","function":{"name":"ls","arguments":"{\"d\":1}"}}]}`),
		`{"choices":[{"index":0,"delta":{},"finish_reason":"length"}],"usage":{"prompt_tokens":1,"completion_tokens":2}}`,
		`{"error":{"message":"boom","code":502}}`, `{"error":null,"choices":[]}`, `[DONE]`, ``, `{"choices":[{"index":0,"delta":`,
	} {
		f.Add(seed, "")
	}
	f.Add(`{"message":"overloaded"}`, "error")
	f.Fuzz(func(t *testing.T, data, typ string) {
		c, err := decodeEvent(sse.Event{Type: typ, Data: []byte(data)})
		var ee *eventError
		if typ == "error" && !errors.As(err, &ee) {
			t.Fatalf("an event of type error gave %v", err)
		}
		if err != nil {
			return
		}
		st := newStreamState(newCallID, slog.New(slog.DiscardHandler))
		st.add(c)
		if end := st.end(); end == nil || end.FinishReason == model.FinishNone {
			t.Fatalf("end = %+v, want a finish reason", end)
		}
	})
}
