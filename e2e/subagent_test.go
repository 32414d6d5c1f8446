package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"companion/internal/testkit/acptest"
)

const readerAgent = "---\nname: reader\ndescription: Reads files and reports what they say\ntools: [read_file]\n---\nYou are a reader subagent.\n"

// TestSubagent has the scripted model delegate to a project subagent whose
// only tool is read_file; the subagent's progress streams in one tool call
// and its answer comes back as the result.
func TestSubagent(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{".companion/agents/reader.md": readerAgent, "a.txt": "alpha\n"})
	fake := acptest.NewFake()
	ed := startAgent(t, agentOpts{script: `{"turns":[
		{"chunks":[{"functionCall":{"name":"delegate_to_agent","args":{"agent":"reader","task":"Read a.txt"}}}]},
		{"match":"You are a reader subagent","chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"a.txt"}}}]},
		{"match":"alpha","chunks":[{"text":"The file says alpha."}]},
		{"match":"The file says alpha.","chunks":[{"text":"Done: alpha."}]}],"fallback":"error"}`, handler: fake.Handle})
	ed.Initialize(map[string]any{})
	id := ed.NewSession(ws)
	if got := ed.StopReason(ed.Wait(ed.Prompt(id, "delegate"))); got != "end_turn" {
		t.Fatalf("stopReason = %q\n%s", got, ed.Stderr())
	}
	var toolCalls int
	var final string
	for _, u := range ed.Updates(id) {
		if u.Kind == "tool_call" {
			toolCalls++
		}
		if u.Kind == "tool_call_update" {
			var c []struct{ Content struct{ Text string } }
			u.Field("content", &c)
			if len(c) > 0 {
				final = c[0].Content.Text
			}
		}
	}
	if toolCalls != 1 || !strings.Contains(final, "▸ Read a.txt") || !strings.Contains(final, "The file says alpha.") {
		t.Errorf("%d tool calls; delegation content %q", toolCalls, final)
	}
	ed.Close()
}

func TestSubagentCancelled(t *testing.T) {
	t.Parallel()
	ws := workspace(t, map[string]string{".companion/agents/reader.md": readerAgent, "a.txt": "alpha\n"})
	release := make(chan struct{})
	defer close(release)
	ed := inProcess(t, `{"turns":[
		{"chunks":[{"functionCall":{"name":"delegate_to_agent","args":{"agent":"reader","task":"Read a.txt"}}}]},
		{"match":"You are a reader subagent","chunks":[{"functionCall":{"name":"read_file","args":{"file_path":"a.txt"}}}]}]}`,
		func(string, json.RawMessage) (any, *acptest.RPCError) {
			<-release
			return nil, &acptest.RPCError{Code: -32800, Message: "cancelled"}
		})
	ed.Initialize(map[string]any{"fs": map[string]any{"readTextFile": true}})
	id := ed.NewSession(ws)
	resp := ed.Prompt(id, "delegate")
	ed.WaitFor(func(m acptest.Msg) bool { return m.Method == "fs/read_text_file" })
	ed.Notify("session/cancel", map[string]any{"sessionId": id})
	if got := ed.StopReason(ed.Wait(resp)); got != "cancelled" {
		t.Fatalf("stopReason = %q", got)
	}
	ed.Close()
}
