package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"encoding/base64"

	"companion/agent"
	"companion/rpc"
	"companion/tools"
)

// updates turns a session's agent events into session/update notifications.
// It is the agent.Sink of an ACP session.
type updates struct {
	conn *rpc.Conn
	id   SessionID
	log  *slog.Logger
	// compaction is set when the client takes compaction updates; others
	// get a short agent message when a compaction ends.
	compaction bool
	// notices is set when the client shows notice updates.
	notices bool
	// announced is closed once the command list went out after the reply
	// that opened the session (see announce).
	announced chan struct{}

	// mu guards session.
	mu sync.Mutex
	// session is the agent session, registered by the host (Opened) once
	// it exists; its config options go out with changes the agent makes.
	session *agent.Session
}

// Opened registers the agent session (host.Observer).
func (u *updates) Opened(a *agent.Session) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.session = a
}

// CommandsChanged sends the new command list (host.Observer).
func (u *updates) CommandsChanged(cmds []agent.Command) {
	u.Emit(context.Background(), agent.CommandsChanged{Commands: cmds})
}

// MCPFailed tells the user an MCP server failed (host.Observer).
func (u *updates) MCPFailed(server, reason string) { u.mcpFailure(server, reason) }

// bound returns the agent session, or nil before it exists.
func (u *updates) bound() *agent.Session {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.session
}

// options returns the session's config options, or nil before it exists.
func (u *updates) options() []SessionConfigOption {
	if a := u.bound(); a != nil {
		return configOptions(a)
	}
	return nil
}

// announce sends the session's slash commands once the reply that opened
// it (session/new, load or resume) is out, then marks the session
// announced. Prompts wait for that, so the editor always has the commands
// before a turn's first update.
func (u *updates) announce(ctx context.Context) {
	rpc.AfterReply(ctx, func() {
		if a := u.bound(); a != nil {
			u.Emit(context.Background(), agent.CommandsChanged{Commands: a.Commands()})
		}
		close(u.announced)
	})
}

// mcpFailure tells the user an MCP server failed.
func (u *updates) mcpFailure(server, reason string) {
	u.notice(context.Background(), NoticeSeverityWarning, "MCP server "+server+" failed",
		reason+". Its tools are withdrawn until it is back; see /mcp.")
}

// notice tells the user something that is not part of the answer: as a
// notice when the client shows them, else as a short agent message.
func (u *updates) notice(ctx context.Context, severity NoticeSeverity, title, detail string) {
	if u.notices {
		u.send(ctx, SessionUpdate{Notice: &Notice{Severity: severity, Title: title, Description: detail}})
		return
	}
	u.send(ctx, SessionUpdate{AgentMessageChunk: &ContentChunk{Content: TextBlock(noticeLine(title, detail))}})
}

// noticeLine is a notice as a short agent message, for clients that do not
// show notices: "_(title: detail.)_", ended by one period whether or not
// the title or the detail had one.
func noticeLine(title, detail string) string {
	text := strings.TrimSuffix(title, ".")
	if detail != "" {
		text += ": " + strings.TrimSuffix(detail, ".")
	}
	return "_(" + text + ".)_\n\n"
}

// Emit sends one event. Updates are sent even after the turn is cancelled:
// ACP wants them all before the prompt's answer.
func (u *updates) Emit(ctx context.Context, ev agent.Event) {
	up, ok := toUpdate(ev)
	switch ev := ev.(type) {
	case agent.CompactionUpdated:
		up, ok = u.compactionUpdate(ev)
	case agent.Notice:
		u.notice(ctx, NoticeSeverity(ev.Level), ev.Text, "")
	case agent.ModelChanged:
		u.notice(ctx, NoticeSeverityWarning, "Now using "+ev.Name, ev.Previous+" failed: "+ev.Reason)
		opts := u.options()
		ok = opts != nil
		if ok {
			up = SessionUpdate{ConfigOptionUpdate: &ConfigOptionUpdate{ConfigOptions: opts}}
		}
	case agent.ModeChanged:
		// Clients that use config options (Zed) ignore current_mode_update:
		// send the option list too, as session/set_mode does.
		if opts := u.options(); opts != nil {
			u.send(ctx, up)
			up = SessionUpdate{ConfigOptionUpdate: &ConfigOptionUpdate{ConfigOptions: opts}}
		}
	case agent.CompactionChunk:
		ok = u.compaction
		up = SessionUpdate{CompactionSummaryChunk: &CompactionSummaryChunk{CompactionID: CompactionID(ev.ID), Content: TextBlock(ev.Text)}}
	}
	if ok {
		u.send(ctx, up)
	}
}

// compactionUpdate maps a compaction's progress for clients that opted in,
// and its end to a one-line message for those that did not.
func (u *updates) compactionUpdate(ev agent.CompactionUpdated) (SessionUpdate, bool) {
	if u.compaction {
		cu := &CompactionUpdate{CompactionID: CompactionID(ev.ID), Status: CompactionStatus(ev.Status), Error: ev.Error}
		if ev.Summary != "" {
			cu.Summary = []ContentBlock{TextBlock(ev.Summary)}
		}
		return SessionUpdate{CompactionUpdate: cu}, true
	}
	switch ev.Status {
	case "completed":
		return SessionUpdate{AgentMessageChunk: &ContentChunk{Content: TextBlock("_(Older turns were summarised to fit the context window.)_\n\n")}}, true
	case "failed":
		return SessionUpdate{AgentMessageChunk: &ContentChunk{Content: TextBlock("_(Older turns were dropped to fit the context window.)_\n\n")}}, true
	}
	return SessionUpdate{}, false
}

func (u *updates) send(ctx context.Context, up SessionUpdate) {
	var params any = &SessionNotification{SessionID: u.id, Update: up}
	if raw, ok := u.fastChunk(up); ok {
		params = raw
	}
	err := u.conn.Notify(context.WithoutCancel(ctx), MethodSessionUpdate, params)
	if err != nil {
		u.log.Debug("session/update not sent", "err", err)
	}
}

// currentMode announces a mode change.
func (u *updates) currentMode(ctx context.Context, id string) {
	u.send(ctx, SessionUpdate{CurrentModeUpdate: &CurrentModeUpdate{CurrentModeID: SessionModeID(id)}})
}

// configOptions announces the complete config option list.
func (u *updates) configOptions(ctx context.Context, opts []SessionConfigOption) {
	u.send(ctx, SessionUpdate{ConfigOptionUpdate: &ConfigOptionUpdate{ConfigOptions: opts}})
}

// toUpdate maps an agent event to its ACP update.
func toUpdate(ev agent.Event) (SessionUpdate, bool) {
	switch ev := ev.(type) {
	case agent.MessageChunk:
		return SessionUpdate{AgentMessageChunk: &ContentChunk{Content: TextBlock(ev.Text)}}, true
	case agent.ThoughtChunk:
		return SessionUpdate{AgentThoughtChunk: &ContentChunk{Content: TextBlock(ev.Text)}}, true
	case agent.UserChunk:
		return SessionUpdate{UserMessageChunk: &ContentChunk{Content: TextBlock(ev.Text), MessageID: MessageID(ev.MessageID)}}, true
	case agent.ToolCallStarted:
		return SessionUpdate{ToolCall: &ToolCall{ToolCallID: ToolCallID(ev.ID), Title: ev.Title, Name: ev.Name,
			Kind: ToolKind(ev.Kind), Status: ToolCallStatusPending, Locations: locations(ev.Locations),
			RawInput: ev.Input, Content: confirmContent(ev.Confirm)}}, true
	case agent.ToolCallUpdated:
		return SessionUpdate{ToolCallUpdate: toolCallUpdate(ev)}, true
	case agent.UsageUpdated:
		return SessionUpdate{UsageUpdate: &UsageUpdate{Used: ev.Used, Size: ev.Size}}, true
	case agent.TitleChanged:
		return SessionUpdate{SessionInfoUpdate: &SessionInfoUpdate{Title: ev.Title, UpdatedAt: ev.At}}, true
	case agent.CommandsChanged:
		return SessionUpdate{AvailableCommandsUpdate: &AvailableCommandsUpdate{AvailableCommands: commands(ev.Commands)}}, true
	case agent.PlanUpdated:
		return SessionUpdate{Plan: plan(ev.Entries)}, true
	case agent.ModeChanged:
		return SessionUpdate{CurrentModeUpdate: &CurrentModeUpdate{CurrentModeID: SessionModeID(ev.ID)}}, true
	case agent.PermissionAnswered:
		return answeredUpdate(ev), true
	case agent.TurnEnded:
		return turnEndUpdate(ev), true
	}
	return SessionUpdate{}, false
}

func toolCallUpdate(ev agent.ToolCallUpdated) *ToolCallUpdate {
	up := &ToolCallUpdate{ToolCallID: ToolCallID(ev.ID), Status: ToolCallStatus(ev.Status)}
	if ev.Outcome != "" {
		// ACP has no terminal status for a user's decision or a call loop
		// detection blocked: the call stays "failed" and _meta says it was
		// rejected, cancelled or blocked.
		up.Meta = map[string]any{"companion": map[string]any{"outcome": ev.Outcome}}
	}
	if ev.TerminalID != "" {
		// The editor's terminal shows the output, live and after release;
		// the final text would only repeat it.
		up.Content = append(up.Content, TerminalContent(TerminalID(ev.TerminalID)))
		up.RawOutput = ev.Raw
		return up
	}
	if d := ev.Diff; d != nil {
		up.Content = append(up.Content, EditContent(d.Path, d.OldText, d.NewText))
	}
	for _, d := range ev.More {
		up.Content = append(up.Content, EditContent(d.Path, d.OldText, d.NewText))
	}
	if ev.Text != "" {
		up.Content = append(up.Content, ToolContent(TextBlock(ev.Text)))
	}
	for _, img := range ev.Images {
		up.Content = append(up.Content, ToolContent(ImageBlock(img.MIMEType, base64.StdEncoding.EncodeToString(img.Data))))
	}
	up.RawOutput = ev.Raw
	return up
}

func locations(ls []tools.Location) []ToolCallLocation {
	var out []ToolCallLocation
	for _, l := range ls {
		loc := ToolCallLocation{Path: l.Path}
		if l.Line > 0 {
			line := l.Line
			loc.Line = &line
		}
		out = append(out, loc)
	}
	return out
}

func commands(cs []agent.Command) []AvailableCommand {
	out := make([]AvailableCommand, 0, len(cs))
	for _, c := range cs {
		ac := AvailableCommand{Name: c.Name, Description: c.Description}
		if c.Hint != "" {
			ac.Input = &AvailableCommandInput{Unstructured: &UnstructuredCommandInput{Hint: c.Hint}}
		}
		out = append(out, ac)
	}
	return out
}

// confirmContent shows what a call would do before it runs: an edit's
// diff, a command and its directory.
func confirmContent(c *tools.Confirmation) []ToolCallContent {
	if c == nil {
		return nil
	}
	switch c.Type {
	case tools.ConfirmEdit:
		out := []ToolCallContent{EditContent(c.Path, c.OldText, c.NewText)}
		for _, d := range c.More {
			out = append(out, EditContent(d.Path, d.OldText, d.NewText))
		}
		return out
	case tools.ConfirmExec:
		fence := "```"
		for strings.Contains(c.Command, fence) {
			fence += "`"
		}
		return []ToolCallContent{ToolContent(TextBlock(fmt.Sprintf("%ssh\n%s\n%s\nin `%s`", fence, c.Command, fence, c.Dir)))}
	case tools.ConfirmMCP:
		return []ToolCallContent{ToolContent(TextBlock(fmt.Sprintf("Tool `%s` of MCP server `%s` with arguments:\n```json\n%s\n```", c.Tool, c.Server, c.Arguments)))}
	case tools.ConfirmInfo:
		return []ToolCallContent{ToolContent(TextBlock(c.Prompt))}
	}
	return nil
}

// plan maps the agent's plan to ACP's.
func plan(entries []tools.PlanEntry) *Plan {
	p := &Plan{Entries: []PlanEntry{}}
	for _, e := range entries {
		p.Entries = append(p.Entries, PlanEntry{Content: e.Content, Priority: PlanEntryPriority(e.Priority), Status: PlanEntryStatus(e.Status)})
	}
	return p
}

// fastChunk encodes the commonest update, a plain text chunk, without
// reflection: it is most of what a turn sends, and all of a long replay.
// The bytes equal what encoding/json writes for the same value.
func (u *updates) fastChunk(up SessionUpdate) (json.RawMessage, bool) {
	var kind string
	var c *ContentChunk
	switch {
	case up.AgentMessageChunk != nil:
		kind, c = "agent_message_chunk", up.AgentMessageChunk
	case up.AgentThoughtChunk != nil:
		kind, c = "agent_thought_chunk", up.AgentThoughtChunk
	case up.UserMessageChunk != nil:
		kind, c = "user_message_chunk", up.UserMessageChunk
	default:
		return nil, false
	}
	t := c.Content.Text
	if t == nil || t.Annotations != nil || t.Meta != nil || c.Meta != nil || c.MessageID != "" {
		return nil, false
	}
	id, _ := json.Marshal(u.id)
	text, _ := json.Marshal(t.Text)
	buf := make([]byte, 0, len(text)+len(id)+96)
	buf = append(buf, `{"sessionId":`...)
	buf = append(buf, id...)
	buf = append(buf, `,"update":{"sessionUpdate":"`...)
	buf = append(buf, kind...)
	buf = append(buf, `","content":{"type":"text","text":`...)
	buf = append(buf, text...)
	return append(buf, "}}}"...), true
}
