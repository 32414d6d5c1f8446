package headless

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"companion/agent"
)

// Output formats.
const (
	formatText   = "text"
	formatJSON   = "json"
	formatStream = "stream-json"
)

// turnLog is what one prompt produced, for its result.
type turnLog struct {
	text    strings.Builder
	calls   []toolCallRecord
	index   map[string]int
	denials []denial
	// afterTool is set when a tool call ended since the last text.
	afterTool bool
	// midLine is set when the text on stdout stopped mid-line.
	midLine bool
}

// reporter turns a session's events into the run's output: text on
// stdout with progress on stderr, one JSON object, or stream-json lines.
// It is the session's agent.Sink.
type reporter struct {
	format  string
	partial bool
	lines   *lineWriter
	stdout  io.Writer
	stderr  io.Writer
	// session and model are read when a line is written.
	session string
	model   func() string
	// totals reads the session's use, for each message's usage; may be nil.
	totals func() agent.Totals
	// runStart is when the run began.
	runStart time.Time

	mu    sync.Mutex
	turn  turnLog
	draft draft
	// lastTotals is the session's use when the last message was written.
	lastTotals agent.Totals
}

// draft is the assistant message being streamed.
type draft struct {
	id     string
	blocks []block
	// open is the index of the text or thinking block still streaming,
	// -1 when none.
	open int
	seq  int
}

// Emit records an event and writes what it shows.
func (r *reporter) Emit(_ context.Context, ev agent.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := ev.(type) {
	case agent.MessageChunk:
		r.answer(r.separator() + e.Text)
		r.addText("text", e.Text)
	case agent.ThoughtChunk:
		r.addText("thinking", e.Text)
	case agent.ToolCallStarted:
		r.started(e)
	case agent.ToolCallUpdated:
		if e.Status == agent.ToolCompleted || e.Status == agent.ToolFailed {
			r.finished(e)
		}
	case agent.Notice:
		r.systemLocked("notice", map[string]any{"level": e.Level, "message": e.Text})
	case agent.ModelChanged:
		r.systemLocked("model_changed", map[string]any{"model": e.Name, "previous_model": e.Previous, "reason": e.Reason})
	case agent.ModeChanged:
		r.systemLocked("permission_mode_changed", map[string]any{"permission_mode": sdkMode(e.ID)})
	case agent.CompactionUpdated:
		if e.Status != "in_progress" {
			r.systemLocked("compact_boundary", map[string]any{"status": e.Status, "summary": e.Summary, "error": e.Error,
				"compact_metadata": map[string]any{"trigger": "auto"}})
		}
	}
}

// answer adds text to the turn's answer (and, in text output, stdout).
func (r *reporter) answer(text string) {
	r.turn.text.WriteString(text)
	switch {
	case text == "":
	case r.format == formatText:
		io.WriteString(r.stdout, text)
		r.turn.midLine = !strings.HasSuffix(text, "\n")
	case r.format == formatGeminiStream:
		r.geminiText("assistant", text)
	}
}

// separator puts a paragraph break between the text before a tool call
// and the text after it, in the answer.
func (r *reporter) separator() string {
	after := r.turn.afterTool
	r.turn.afterTool = false
	t := r.turn.text.String()
	switch {
	case !after || t == "" || strings.HasSuffix(t, "\n\n"):
		return ""
	case strings.HasSuffix(t, "\n"):
		return "\n"
	}
	return "\n\n"
}

// system writes a system line (stream-json), or a progress line on stderr
// (text) for the notices a person should see.
func (r *reporter) system(subtype string, fields map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.systemLocked(subtype, fields)
}

func (r *reporter) systemLocked(subtype string, fields map[string]any) {
	switch r.format {
	case formatStream:
		r.flushLocked("")
		r.lines.write(systemLine{envelope: envelope{Type: typeSystem, Subtype: subtype, UUID: newUUID(), SessionID: r.session}, fields: fields})
	case formatGeminiStream:
		r.geminiSystem(subtype, fields)
	case formatText, formatJSON:
		if msg := noticeText(subtype, fields); msg != "" {
			fmt.Fprintln(r.stderr, msg)
		}
	}
}

// noticeText is how a system line reads on stderr; "" for those a person
// running a script does not need.
func noticeText(subtype string, f map[string]any) string {
	switch subtype {
	case "notice":
		return fmt.Sprintf("companion: %v", f["message"])
	case "model_changed":
		return fmt.Sprintf("companion: model is now %v (%v)", f["model"], f["reason"])
	}
	return ""
}

// started records a tool call and shows it.
func (r *reporter) started(e agent.ToolCallStarted) {
	if r.turn.index == nil {
		r.turn.index = map[string]int{}
	}
	r.turn.index[e.ID] = len(r.turn.calls)
	r.turn.calls = append(r.turn.calls, toolCallRecord{ID: e.ID, Name: e.Name, Title: e.Title, Kind: string(e.Kind),
		Input: inputJSON(e.Input), Status: string(agent.ToolPending)})
	switch r.format {
	case formatText:
		// On a terminal stdout and stderr share the screen: a call starts
		// a line of its own even when the answer stopped mid-line.
		if r.turn.midLine {
			io.WriteString(r.stderr, "\n")
			r.turn.midLine = false
		}
		fmt.Fprintf(r.stderr, "● %s\n", e.Title)
	case formatStream:
		r.toolUse(e.ID, e.Name, inputJSON(e.Input))
	case formatGeminiStream:
		r.gemini(geminiEvent{Type: "tool_use", ToolName: e.Name, ToolID: e.ID, Parameters: inputJSON(e.Input)})
	}
}

// finished records a call's end and writes its result.
func (r *reporter) finished(e agent.ToolCallUpdated) {
	i, ok := r.turn.index[e.ID]
	if !ok {
		return
	}
	r.turn.afterTool = true
	c := &r.turn.calls[i]
	c.Status, c.IsError, c.Output = string(e.Status), e.Status == agent.ToolFailed, e.Text
	if e.Refused {
		r.turn.denials = append(r.turn.denials, denial{ToolName: c.Name, ToolUseID: c.ID, ToolInput: c.Input})
	}
	switch r.format {
	case formatText:
		mark := "  ✓ done"
		if c.IsError {
			mark = "  ✗ " + firstLine(e.Text)
		}
		fmt.Fprintln(r.stderr, mark)
	case formatStream:
		r.flushLocked("")
		isErr, text := c.IsError, e.Text
		r.lines.write(chatLine{envelope: r.envelope(typeUser), Message: apiMessage{Role: "user",
			Content: []block{{Type: "tool_result", ToolUseID: c.ID, Content: &text, IsError: &isErr}}}})
	case formatGeminiStream:
		r.geminiToolResult(c, e.Refused)
	}
}

func (r *reporter) envelope(typ string) envelope {
	return envelope{Type: typ, UUID: newUUID(), SessionID: r.session}
}

// inputJSON is a call's input as a JSON object ({} when it has none).
func inputJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("{}")
	}
	return raw
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
