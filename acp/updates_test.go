package acp

import (
	"encoding/json"
	"strings"
	"testing"

	"companion/agent"
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

// TestToolCallUpdateOutcome checks that a call the user rejected or
// cancelled says so in _meta, while a plain failure does not.
func TestToolCallUpdateOutcome(t *testing.T) {
	for _, tt := range []struct {
		name, outcome, want string
	}{
		{"rejected", agent.OutcomeRejected, `"_meta":{"companion":{"outcome":"rejected"}}`},
		{"cancelled", agent.OutcomeCancelled, `"_meta":{"companion":{"outcome":"cancelled"}}`},
		{"blocked", agent.OutcomeBlocked, `"_meta":{"companion":{"outcome":"blocked"}}`},
		{"failed", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			up := toolCallUpdate(agent.ToolCallUpdated{ID: "c1", Status: agent.ToolFailed, Text: "no", Outcome: tt.outcome})
			b, err := json.Marshal(up)
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			if !strings.Contains(got, `"status":"failed"`) {
				t.Errorf("status not failed: %s", got)
			}
			if tt.want == "" && strings.Contains(got, "_meta") {
				t.Errorf("unexpected _meta: %s", got)
			}
			if tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("got %s, want %s in it", got, tt.want)
			}
		})
	}
}

// TestNoticeLine: a notice shown as an agent message ends with exactly one
// period, whether the title or the detail brought one.
func TestNoticeLine(t *testing.T) {
	for _, tt := range []struct{ title, detail, want string }{
		{"This workspace is not trusted (why): every edit asks first.", "", "_(This workspace is not trusted (why): every edit asks first.)_\n\n"},
		{"Compacted", "", "_(Compacted.)_\n\n"},
		{"MCP server x failed", "it exited. Its tools are withdrawn.", "_(MCP server x failed: it exited. Its tools are withdrawn.)_\n\n"},
		{"Now using m2", "m1 failed: 429", "_(Now using m2: m1 failed: 429.)_\n\n"},
	} {
		if got := noticeLine(tt.title, tt.detail); got != tt.want {
			t.Errorf("noticeLine(%q, %q) = %q, want %q", tt.title, tt.detail, got, tt.want)
		}
	}
}

// TestReplayOnlyUpdates checks the wire form of what only a replay sends:
// a permission answer on its call's tool_call_update and a turn end on a
// session_info_update, both in _meta.companion.
func TestReplayOnlyUpdates(t *testing.T) {
	opts := []agent.Option{{ID: agent.ProceedOnce, Label: "Allow this time", Kind: agent.AllowOnce}, {ID: agent.RejectOnceID, Label: "Reject", Kind: agent.RejectOnce}}
	for _, tt := range []struct {
		name string
		ev   agent.Event
		want string
	}{
		{"answered", agent.PermissionAnswered{CallID: "call_1", Title: "Edit a.txt", Options: opts, OptionID: agent.ProceedOnce},
			`{"sessionUpdate":"tool_call_update","toolCallId":"call_1","_meta":{"companion":{"permission":{"optionId":"proceed_once","options":[{"optionId":"proceed_once","name":"Allow this time","kind":"allow_once"},{"optionId":"reject_once","name":"Reject","kind":"reject_once"}],"title":"Edit a.txt"}}}}`},
		{"dismissed", agent.PermissionAnswered{CallID: "call_2", Title: "Run ls", Options: opts[:1]},
			`{"sessionUpdate":"tool_call_update","toolCallId":"call_2","_meta":{"companion":{"permission":{"options":[{"optionId":"proceed_once","name":"Allow this time","kind":"allow_once"}],"title":"Run ls"}}}}`},
		{"cancelled", agent.TurnEnded{Stop: agent.Cancelled},
			`{"sessionUpdate":"session_info_update","_meta":{"companion":{"turnEnd":{"stopReason":"cancelled"}}}}`},
		{"failed", agent.TurnEnded{Stop: agent.EndTurn, Error: "The model is unreachable."},
			`{"sessionUpdate":"session_info_update","_meta":{"companion":{"turnEnd":{"error":"The model is unreachable.","stopReason":"end_turn"}}}}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			up, ok := toUpdate(tt.ev)
			if !ok {
				t.Fatal("no update")
			}
			b, err := json.Marshal(up)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("got  %s\nwant %s", b, tt.want)
			}
		})
	}
}
