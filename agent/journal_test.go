package agent

import (
	"encoding/json"
	"strings"
	"testing"

	"companion/tools"
)

// TestKeptEventBigWrite checks that the journal keeps a large write's
// content in none of its events (the history keeps the call once), that
// small ones are kept whole, and that the kept events decode for replay.
func TestKeptEventBigWrite(t *testing.T) {
	big := strings.Repeat("x", maxKeptText+1)
	small := "hello\n"
	input := func(content string) json.RawMessage {
		b, _ := json.Marshal(map[string]string{"file_path": "f.txt", "content": content})
		return b
	}
	tests := []struct {
		name     string
		ev       Event
		kind     string
		wantKept string // text the encoded event must contain
		maxLen   int
	}{
		{"started big", ToolCallStarted{ID: "c1", Name: "write_file", Input: input(big),
			Confirm: &tools.Confirmation{Type: tools.ConfirmEdit, Path: "/w/f.txt", OldText: &big, NewText: big}},
			"tool_call", "content too large to keep", 4 << 10},
		{"updated big", ToolCallUpdated{ID: "c1", Status: ToolCompleted, Diff: &tools.Diff{Path: "/w/f.txt", NewText: big}},
			"tool_update", "content too large to keep", 4 << 10},
		{"started small", ToolCallStarted{ID: "c2", Name: "write_file", Input: input(small),
			Confirm: &tools.Confirmation{Type: tools.ConfirmEdit, Path: "/w/f.txt", NewText: small}},
			"tool_call", `"NewText":"hello\n"`, 4 << 10},
		{"updated small", ToolCallUpdated{ID: "c2", Status: ToolCompleted, Diff: &tools.Diff{Path: "/w/f.txt", OldText: &small, NewText: small}},
			"tool_update", `"OldText":"hello\n"`, 4 << 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := json.Marshal(keptEvent(tt.ev))
			if err != nil {
				t.Fatal(err)
			}
			if len(raw) > tt.maxLen {
				t.Errorf("kept event is %d bytes, want at most %d", len(raw), tt.maxLen)
			}
			if !strings.Contains(string(raw), tt.wantKept) {
				t.Errorf("kept event %s lacks %q", raw, tt.wantKept)
			}
			back, err := decodeEvent(eventRecord{Kind: tt.kind, Event: raw})
			if err != nil {
				t.Fatalf("kept event does not decode: %v", err)
			}
			if eventKind(back) != tt.kind {
				t.Errorf("decoded kind %q, want %q", eventKind(back), tt.kind)
			}
		})
	}
	// The live event is untouched: the front end still gets the content.
	ev := ToolCallStarted{Input: input(big), Confirm: &tools.Confirmation{NewText: big}}
	keptEvent(ev)
	if ev.Confirm.NewText != big || len(ev.Input) < len(big) {
		t.Error("keptEvent changed the event it was given")
	}
}
