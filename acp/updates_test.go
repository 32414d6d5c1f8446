package acp

import (
	"encoding/json"
	"testing"
)

// TestFastChunkMatchesEncodingJSON checks the hand-written encoding of
// text chunks against encoding/json for awkward texts.
func TestFastChunkMatchesEncodingJSON(t *testing.T) {
	u := &updates{id: "sess_<1>"}
	for _, text := range []string{"", "hello", "quote \" backslash \\ newline \n tab \t", "<html> & \u2028 \u00e9 \U0001F600", "\x00\x1f"} {
		for _, up := range []SessionUpdate{
			{AgentMessageChunk: &ContentChunk{Content: TextBlock(text)}},
			{AgentThoughtChunk: &ContentChunk{Content: TextBlock(text)}},
			{UserMessageChunk: &ContentChunk{Content: TextBlock(text)}},
		} {
			fast, ok := u.fastChunk(up)
			if !ok {
				t.Fatalf("no fast path for %q", text)
			}
			slow, err := json.Marshal(&SessionNotification{SessionID: u.id, Update: up})
			if err != nil {
				t.Fatal(err)
			}
			if string(fast) != string(slow) {
				t.Errorf("fast %s\nslow %s", fast, slow)
			}
		}
	}
	if _, ok := u.fastChunk(SessionUpdate{AgentMessageChunk: &ContentChunk{Content: TextBlock("x"), MessageID: "m1"}}); ok {
		t.Error("fast path taken for a chunk with a message id")
	}
	if _, ok := u.fastChunk(SessionUpdate{Plan: &Plan{}}); ok {
		t.Error("fast path taken for a plan")
	}
}
