package openai

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"runtime"
	"strings"
	"testing"
)

func TestArgText(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("0123456789abcdef", argBlock/16) // one block
	tests := []struct {
		name   string
		deltas []string
	}{
		{"none", nil},
		{"one small", []string{`{"a":1}`}},
		{"empty deltas", []string{"", `{"a"`, "", `:1}`, ""}},
		{"the first slice grows past a block", []string{big[:argBlock/2], big[argBlock/2:], `x`}},
		{"crosses blocks", []string{big, big[:7], big, big, `tail`}},
		{"one delta over a block", []string{`{`, big + big + big[:3], `}`}},
		{"many small deltas", strings.SplitAfter(strings.Repeat("ab,", argBlock), ",")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a argText
			for _, d := range tt.deltas {
				a.add(d)
			}
			want := strings.Join(tt.deltas, "")
			if got := a.bytes(); string(got) != want {
				t.Errorf("text of %d bytes, want %d bytes", len(got), len(want))
			}
			if string(a.bytes()) != want {
				t.Error("a second call gives another text")
			}
		})
	}
}

// TestHugeStreamedCallAllocations streams a 16 MiB write_file call as the
// OpenAI API does, 32 bytes of arguments per delta, through the provider's
// stream state, bounds what gathering and decoding the arguments
// allocates and checks that memory is released once before the decode.
// The deltas are given decoded (the garbage of reading and decoding each
// event is not the call's): appending them to one slice allocated 7.8× the
// text, most of it in copies as the slice grew; blocks joined once, 4.2×.
func TestHugeStreamedCallAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocations")
	}
	content := strings.Repeat("a line of a big file\n", (16<<20)/21)
	args, err := json.Marshal(map[string]string{"file_path": "big.txt", "content": content})
	if err != nil {
		t.Fatal(err)
	}
	text := string(args)
	st := newStreamState(newCallID, slog.New(slog.DiscardHandler))
	c := chunk{Choices: []choice{{Delta: delta{ToolCalls: []toolCallDelta{{ID: "call_1"}}}}}}
	call := &c.Choices[0].Delta.ToolCalls[0]
	call.Function.Name = "write_file"
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < len(text); i += 32 {
		call.Function.Arguments = text[i:min(i+32, len(text))]
		st.add(&c)
		call.ID, call.Function.Name = "", ""
	}
	c.Choices[0].Delta.ToolCalls, c.Choices[0].FinishReason = nil, "tool_calls"
	out := st.add(&c)
	runtime.ReadMemStats(&after)
	if out == nil || len(out.Parts) != 1 || out.Parts[0].FunctionCall.Args["content"] != content {
		t.Fatalf("the call's content of %d bytes came out wrong", len(content))
	}
	ratio := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(text))
	t.Logf("allocated %.2f× the %d MiB argument text", ratio, len(text)>>20)
	if ratio > 4.5 {
		t.Errorf("gathering and decoding a %d MiB call allocated %.2f× its text, want at most 4.5×", len(text)>>20, ratio)
	}
	if n := after.NumForcedGC - before.NumForcedGC; n != 1 {
		t.Errorf("%d forced collections for one huge call, want 1 (model.ReleaseBeforeDecode)", n)
	}
}

// TestMalformedHugeCallLogsItsStart: arguments that are not JSON are
// logged by their size and start, not whole (a malformed write_file may be
// a whole file).
func TestMalformedHugeCallLogsItsStart(t *testing.T) {
	t.Parallel()
	var log bytes.Buffer
	st := newStreamState(newCallID, slog.New(slog.NewTextHandler(&log, nil)))
	c := chunk{Choices: []choice{{Delta: delta{ToolCalls: []toolCallDelta{{ID: "c"}}}}}}
	c.Choices[0].Delta.ToolCalls[0].Function.Name = "write_file"
	c.Choices[0].Delta.ToolCalls[0].Function.Arguments = `{"content":"` + strings.Repeat("x", 1<<20)
	st.add(&c)
	out := st.end()
	if len(out.Parts) != 1 || out.Parts[0].FunctionCall.Args != nil {
		t.Fatalf("parts = %+v, want the call without arguments", out.Parts)
	}
	if !strings.Contains(log.String(), "bytes=1048588") || log.Len() > 2*maxLoggedArgs {
		t.Errorf("log of %d bytes, want the size and at most %d bytes of the text:\n%.300s", log.Len(), maxLoggedArgs, log.String())
	}
}
